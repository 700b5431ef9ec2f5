// One point per item coloured by series, optionally with a loess trend per series to show a relationship in noise.
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  SCHEMA,
  axisFormat,
  baseConfig,
  inlineData,
  seriesColor,
  titleOf,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface ScatterOptions extends CommonOptions {
  x?: string;
  y?: string;
  series?: string;
  xTitle: string;
  yTitle: string;
  yPercent?: boolean;
  trend?: boolean;
}

export function scatter(rows: Record<string, unknown>[], options: ScatterOptions): VegaLiteSpec {
  const { x = "x", y = "y", series = "series" } = options;
  const hasSeries = rows.some((row) => row[series] !== undefined);
  const color = seriesColor(rows, series, options.width ?? CHART_WIDTH);
  const xEnc = { field: x, type: "quantitative", title: options.xTitle };
  const yEnc = { field: y, type: "quantitative", title: options.yTitle, axis: axisFormat(options.yPercent) };
  const layers: Record<string, unknown>[] = [
    {
      mark: { type: "point", filled: true, opacity: 0.55, size: 28, tooltip: true },
      encoding: { x: xEnc, y: yEnc, color },
    },
  ];
  if (options.trend) {
    layers.push({
      transform: [{ loess: y, on: x, ...(hasSeries ? { groupby: [series] } : {}) }],
      mark: { type: "line", strokeWidth: 2.5 },
      encoding: { x: { field: x, type: "quantitative" }, y: { field: y, type: "quantitative" }, color },
    });
  }
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? CHART_HEIGHT,
    layer: layers,
    config: baseConfig(),
  };
}

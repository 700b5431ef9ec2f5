// A metric against a swept parameter (e.g. recall@5 vs overlap) for several series, with a CI band per
// series and the knee(s) marked by a labelled vertical rule.
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  SCHEMA,
  axisFormat,
  baseConfig,
  colorScale,
  inlineData,
  titleOf,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface Knee {
  x: number;
  label: string;
}

/** A horizontal shaded band across the chart (e.g. the margin a difference must stay within). */
export interface YBand {
  from: number;
  to: number;
  label: string;
}

export interface LineCIOptions extends CommonOptions {
  x?: string;
  y?: string;
  low?: string;
  high?: string;
  series?: string;
  xTitle: string;
  yTitle: string;
  percent?: boolean;
  knees?: Knee[];
  /** Start the y axis at zero (default false: rates near each other stay readable). */
  zero?: boolean;
  /** Shaded horizontal bands drawn under the lines, labelled at the right edge. */
  yBands?: YBand[];
  /** Dashed horizontal rules (e.g. y = 0). */
  yRules?: number[];
}

export function lineWithBand(rows: Record<string, unknown>[], options: LineCIOptions): VegaLiteSpec {
  const x = options.x ?? "x";
  const y = options.y ?? "y";
  const low = options.low ?? "low";
  const high = options.high ?? "high";
  const series = options.series ?? "series";
  const hasBand = rows.some((row) => typeof row[low] === "number" && typeof row[high] === "number");
  const hasSeries = rows.some((row) => row[series] !== undefined);
  // Solid legend symbols: the legend is shared with the faint CI band, whose opacity it would otherwise take.
  const color = hasSeries
    ? {
        field: series,
        type: "nominal",
        scale: colorScale(rows, series),
        title: null,
        legend: { symbolOpacity: 1, symbolType: "circle" },
      }
    : { value: "#0072B2" };
  const xEnc = { field: x, type: "quantitative", title: options.xTitle };
  const yScale = { zero: options.zero ?? false };
  const layers: Record<string, unknown>[] = [];
  for (const band of options.yBands ?? []) {
    layers.push(
      {
        data: { values: [{}] },
        mark: { type: "rect", color: "#009E73", opacity: 0.12 },
        encoding: { y: { datum: band.from, type: "quantitative", scale: yScale }, y2: { datum: band.to } },
      },
      {
        data: { values: [{}] },
        mark: { type: "text", align: "right", baseline: "top", dx: -4, dy: 3, fontSize: 11, color: "#006d4f" },
        encoding: {
          x: { value: options.width ?? CHART_WIDTH },
          y: { datum: Math.max(band.from, band.to), type: "quantitative" },
          text: { value: band.label },
        },
      },
    );
  }
  for (const rule of options.yRules ?? []) {
    layers.push({
      data: { values: [{}] },
      mark: { type: "rule", color: "#888888", strokeDash: [2, 3] },
      encoding: { y: { datum: rule, type: "quantitative" } },
    });
  }
  if (hasBand) {
    layers.push({
      mark: { type: "area", opacity: 0.18 },
      encoding: { x: xEnc, y: { field: low, type: "quantitative", scale: yScale }, y2: { field: high }, color },
    });
  }
  layers.push({
    mark: { type: "line", point: { filled: true, size: 36 }, strokeWidth: 2, tooltip: true },
    encoding: {
      x: xEnc,
      y: { field: y, type: "quantitative", title: options.yTitle, axis: axisFormat(options.percent), scale: yScale },
      color,
    },
  });
  for (const knee of options.knees ?? []) {
    layers.push(
      // Own one-row data, so each annotation is drawn once rather than once per data row.
      {
        data: { values: [{}] },
        mark: { type: "rule", color: "#444444", strokeDash: [5, 4], strokeWidth: 1.5 },
        encoding: { x: { datum: knee.x, type: "quantitative" } },
      },
      {
        data: { values: [{}] },
        mark: {
          type: "text",
          align: "left",
          baseline: "top",
          dx: 5,
          dy: 4,
          fontSize: 11,
          fontWeight: 600,
          color: "#222222",
        },
        encoding: { x: { datum: knee.x, type: "quantitative" }, y: { value: 0 }, text: { value: knee.label } },
      },
    );
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

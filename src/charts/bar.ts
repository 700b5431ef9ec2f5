// A rate per category (e.g. share of seams with zero overlap, % of sentence pairs kept) with its confidence
// interval drawn as an error bar, so a difference smaller than the CIs is not read as real.
import {
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

export interface BarCIOptions extends CommonOptions {
  /** Category field (one bar each; default "label"). */
  category?: string;
  value?: string;
  low?: string;
  high?: string;
  /** Colour/grouping field (default: the category). */
  series?: string;
  valueTitle: string;
  categoryTitle?: string;
  /** Values are fractions shown as percentages. */
  percent?: boolean;
}

export function barWithCI(rows: Record<string, unknown>[], options: BarCIOptions): VegaLiteSpec {
  const category = options.category ?? "label";
  const value = options.value ?? "value";
  const low = options.low ?? "low";
  const high = options.high ?? "high";
  const series = options.series ?? category;
  const order = Array.from(new Set(rows.map((row) => row[category])));
  const y = { field: category, type: "nominal", sort: order, title: options.categoryTitle ?? null };
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    width: options.width ?? CHART_WIDTH,
    height: options.height ?? { step: 26 },
    layer: [
      {
        mark: { type: "bar", tooltip: true },
        encoding: {
          y,
          x: {
            field: value,
            type: "quantitative",
            title: options.valueTitle,
            axis: axisFormat(options.percent),
            ...(options.percent ? { scale: { domain: [0, 1] } } : {}),
          },
          color: {
            field: series,
            type: "nominal",
            scale: colorScale(rows, series),
            legend: series === category ? null : {},
          },
        },
      },
      {
        mark: { type: "rule", color: "#222222", strokeWidth: 1.5 },
        encoding: { y, x: { field: low, type: "quantitative" }, x2: { field: high } },
      },
      {
        mark: { type: "tick", color: "#222222", thickness: 1.5, size: 10 },
        encoding: { y, x: { field: low, type: "quantitative" } },
      },
      {
        mark: { type: "tick", color: "#222222", thickness: 1.5, size: 10 },
        encoding: { y, x: { field: high, type: "quantitative" } },
      },
    ],
    config: baseConfig(),
  };
}

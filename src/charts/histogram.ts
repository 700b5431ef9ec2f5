// Distribution of a per-seam quantity (e.g. real overlap in characters) for several splitters, one panel per
// splitter so the shapes can be compared on a shared x scale, with the configured budget marked.
import {
  CHART_WIDTH,
  SCHEMA,
  baseConfig,
  colorScale,
  distinct,
  inlineData,
  titleOf,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface HistogramOptions extends CommonOptions {
  /** Field with the measured value (default "overlap"). */
  value?: string;
  /** Field naming the series, one panel each (default "splitter"). */
  series?: string;
  /** Axis title including the unit, e.g. "real overlap at the seam (chars)". */
  xTitle: string;
  /** Bin width in the value's unit (default: vega-lite picks ~20 bins). */
  binStep?: number;
  /** A vertical rule with a label, e.g. the configured overlap. */
  marker?: { value: number; label: string };
}

export function overlapHistogram(rows: Record<string, unknown>[], options: HistogramOptions): VegaLiteSpec {
  const value = options.value ?? "overlap";
  const series = options.series ?? "splitter";
  const bin = options.binStep ? { step: options.binStep } : { maxbins: 20 };
  const layers: Record<string, unknown>[] = [
    {
      mark: { type: "bar", tooltip: true, binSpacing: 1 },
      encoding: {
        x: { field: value, type: "quantitative", bin, title: options.xTitle },
        y: { aggregate: "count", type: "quantitative", title: "seams" },
        color: { field: series, type: "nominal", scale: colorScale(rows, series), legend: null },
      },
    },
  ];
  if (options.marker) {
    // One row per panel, so the rule and its label are drawn once, not once per seam.
    const once = [{ aggregate: [{ op: "count", as: "seams" }], groupby: [series] }];
    layers.push(
      {
        transform: once,
        mark: { type: "rule", color: "#333333", strokeDash: [4, 3] },
        encoding: { x: { datum: options.marker.value } },
      },
      {
        transform: once,
        mark: { type: "text", align: "left", dx: 4, dy: 2, baseline: "top", fontSize: 11, color: "#333333" },
        encoding: { x: { datum: options.marker.value }, y: { value: 0 }, text: { value: options.marker.label } },
      },
    );
  }
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    facet: {
      row: {
        field: series,
        type: "nominal",
        title: null,
        sort: distinct(rows, series),
        header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top" },
      },
    },
    spec: { width: options.width ?? CHART_WIDTH, height: options.height ?? 90, layer: layers },
    resolve: { scale: { y: "independent" } },
    config: baseConfig(),
  };
}

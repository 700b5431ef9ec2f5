// A per-seam quantity's distribution, one panel per splitter on a shared x scale, with the configured budget marked.
import { LABEL_FONT_SIZE, pixelOf, placeRuleLabels, withHalo } from "./label-layout";
import {
  CHART_WIDTH,
  INK,
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
  /** default "overlap" */
  value?: string;
  /** one panel each (default "splitter") */
  series?: string;
  /** Axis title including the unit, e.g. "real overlap at the seam (chars)". */
  xTitle: string;
  /** Bin width in the value's unit (default: vega-lite picks ~20 bins). */
  binStep?: number;
  /** A vertical rule with a label, e.g. the configured overlap. */
  marker?: { value: number; label: string };
}

/** Counts per series and bin as vega-lite's `bin: {step}` makes them over all rows (the top value in the last bin). */
export function binnedCounts(
  rows: readonly Record<string, unknown>[],
  value: string,
  series: string,
  step: number,
): { series: unknown; start: number; end: number; count: number }[] {
  const finite = rows.filter((row) => typeof row[value] === "number" && Number.isFinite(row[value]));
  if (finite.length === 0) return [];
  const min = finite.reduce((m, row) => Math.min(m, row[value] as number), Infinity);
  const max = finite.reduce((m, row) => Math.max(m, row[value] as number), -Infinity);
  const first = Math.floor(min / step + 1e-14) * step;
  const stop = Math.max(Math.ceil(max / step) * step, first + step);
  const bins = new Map<unknown, Map<number, number>>();
  for (const row of finite) {
    const x = Math.max(first, Math.min(row[value] as number, stop - step));
    const start = first + step * Math.floor(1e-14 + (x - first) / step);
    let counts = bins.get(row[series]);
    if (!counts) bins.set(row[series], (counts = new Map()));
    counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  return [...bins].flatMap(([name, counts]) =>
    [...counts]
      .sort((a, b) => a[0] - b[0])
      .map(([start, count]) => ({ series: name, start, end: start + step, count })),
  );
}

/** With `binStep` the spec carries one row per non-empty bin (seams can number millions), else the raw rows. */
export function overlapHistogram(rows: Record<string, unknown>[], options: HistogramOptions): VegaLiteSpec {
  const { value = "overlap", series = "splitter" } = options;
  const step = options.binStep;
  const data = step
    ? binnedCounts(rows, value, series, step).map((b) => ({
        [series]: b.series,
        bin_start: b.start,
        bin_end: b.end,
        count: b.count,
      }))
    : rows;
  const color = { field: series, type: "nominal", scale: colorScale(rows, series), legend: null };
  const encoding = step
    ? {
        x: { field: "bin_start", type: "quantitative", bin: { binned: true, step }, title: options.xTitle },
        x2: { field: "bin_end" },
        y: { field: "count", type: "quantitative", title: "seams" },
        color,
      }
    : {
        x: { field: value, type: "quantitative", bin: { maxbins: 20 }, title: options.xTitle },
        y: { aggregate: "count", type: "quantitative", title: "seams" },
        color,
      };
  const layers: Record<string, unknown>[] = [{ mark: { type: "bar", tooltip: true, binSpacing: 1 }, encoding }];
  const width = options.width ?? CHART_WIDTH;
  const height = options.height ?? 90;
  if (options.marker) {
    // right of the rule, or left near the edge (raw rows' extent approximates vega-lite's round bin ends)
    const ends = step
      ? data.flatMap((b) => [b.bin_start as number, b.bin_end as number])
      : rows.map((row) => row[value]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    const extent: [number, number] = [Math.min(options.marker.value, ...ends), Math.max(options.marker.value, ...ends)];
    const at = pixelOf(options.marker.value, extent, width);
    const placed = placeRuleLabels([{ at, text: options.marker.label }], width, height)[0];
    const right = placed ? placed.align === "right" : at > width / 2;
    // one row per panel: the rule and its label drawn once, not once per seam
    const once = [{ aggregate: [{ op: "count", as: "seams" }], groupby: [series] }];
    layers.push(
      {
        transform: once,
        mark: { type: "rule", color: INK.marker, strokeDash: [4, 3] },
        encoding: { x: { datum: options.marker.value } },
      },
      ...withHalo({
        transform: once,
        mark: {
          type: "text",
          align: right ? "right" : "left",
          dx: right ? -4 : 4,
          dy: 2,
          baseline: "top",
          fontSize: LABEL_FONT_SIZE,
          color: INK.marker,
        },
        encoding: { x: { datum: options.marker.value }, y: { value: 0 }, text: { value: options.marker.label } },
      }),
    );
  }
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(data),
    facet: {
      row: {
        field: series,
        type: "nominal",
        title: null,
        sort: distinct(rows, series),
        header: { labelAngle: 0, labelAlign: "left", labelAnchor: "start", labelOrient: "top" },
      },
    },
    spec: { width, height, layer: layers },
    resolve: { scale: { y: "independent" } },
    config: baseConfig(),
  };
}

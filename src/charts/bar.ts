// A rate per category with its CI as an error bar, so a difference smaller than the CIs is not read as real. The axis
// runs to the full scale (0-100% for rates) unless every bar is under a fifth of it: then it ends near the longest
// bar and its title says where, so bars near 2% never look full.
import { LABEL_FONT_SIZE, pixelOf } from "./label-layout";
import {
  CHART_WIDTH,
  INK,
  SCHEMA,
  axisFormat,
  baseConfig,
  colorScale,
  distinct,
  estimateTextWidth,
  inlineData,
  niceDomain,
  seriesLegend,
  titleOf,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface BarCIOptions extends CommonOptions {
  /** default "label" */
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
  /** The largest value the measure can take (default 1 with `percent`); unknown, the axis ends past the longest bar. */
  scaleMax?: number;
}

/** The value axis: [0, full] when the longest bar is a fifth of it or more, else [0, a round end past the longest]. */
export function barDomain(top: number, full: number | undefined): { domain: [number, number]; cut: boolean } {
  if (full !== undefined && top >= 0.2 * full) return { domain: [0, full], cut: false };
  const end = niceDomain(0, Math.max(top, 0) * 1.25 || 1)[1];
  return { domain: [0, full !== undefined ? Math.min(end, full) : end], cut: full !== undefined };
}

function formatted(value: number, percent: boolean | undefined): string {
  return percent ? `${Number((value * 100).toFixed(1))}%` : String(Number(value.toPrecision(3)));
}

export function barWithCI(rows: Record<string, unknown>[], options: BarCIOptions): VegaLiteSpec {
  const { category = "label", value = "value", low = "low", high = "high", series = category } = options;
  const width = options.width ?? CHART_WIDTH;
  const order = distinct(rows, category);
  const y = { field: category, type: "nominal", sort: order, title: options.categoryTitle ?? null };
  // Several rows per category: side by side, never stacked (a stacked bar's length would be the sum of two rates).
  const grouped = rows.length > order.length && series !== category;
  const offset = grouped ? { yOffset: { field: series, type: "nominal", sort: distinct(rows, series) } } : {};
  const ends = rows.map((row) =>
    Math.max(...[row[value], row[high]].filter((v): v is number => typeof v === "number")),
  );
  const full = options.scaleMax ?? (options.percent ? 1 : undefined);
  const { domain, cut } = barDomain(Math.max(0, ...ends.filter(Number.isFinite)), full);
  const title = cut
    ? `${options.valueTitle}; axis ends at ${formatted(domain[1], options.percent)} of ${formatted(full!, options.percent)}`
    : options.valueTitle;
  const x = { type: "quantitative", scale: { domain, nice: false, zero: true } };
  // Each bar's value right of its error bar, or inside the bar when the plot's edge is too near.
  const labels = rows.flatMap((row, i) => {
    if (typeof row[value] !== "number") return [];
    const text = formatted(row[value] as number, options.percent);
    const outside = pixelOf(ends[i], domain, width) + 6 + estimateTextWidth(text, LABEL_FONT_SIZE) <= width;
    return [{ [category]: row[category], [series]: row[series], at: outside ? ends[i] : 0, text, outside }];
  });
  const labelLayer = (outside: boolean) => ({
    data: { values: labels.filter((l) => l.outside === outside) },
    mark: {
      type: "text",
      align: "left",
      dx: 6,
      fontSize: LABEL_FONT_SIZE,
      color: outside ? INK.text : "#ffffff",
      fontWeight: outside ? 400 : 600,
    },
    encoding: { y, ...offset, x: { field: "at", ...x }, text: { field: "text", type: "nominal" } },
  });
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    width,
    height: options.height ?? { step: grouped ? 18 * distinct(rows, series).length : 26 },
    layer: [
      {
        mark: { type: "bar", tooltip: true },
        encoding: {
          y,
          ...offset,
          x: { field: value, title, axis: axisFormat(options.percent), ...x, ...(grouped ? { stack: null } : {}) },
          color: {
            field: series,
            type: "nominal",
            scale: colorScale(rows, series),
            legend: series === category ? null : seriesLegend(distinct(rows, series), width),
          },
        },
      },
      {
        mark: { type: "rule", color: INK.text, strokeWidth: 1.5 },
        encoding: { y, ...offset, x: { field: low, ...x }, x2: { field: high } },
      },
      ...[low, high].map((field) => ({
        mark: { type: "tick", color: INK.text, thickness: 1.5, size: 10 },
        encoding: { y, ...offset, x: { field, ...x } },
      })),
      ...[true, false].filter((outside) => labels.some((l) => l.outside === outside)).map(labelLayer),
    ],
    config: baseConfig(),
  };
}

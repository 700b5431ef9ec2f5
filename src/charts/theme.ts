// Shared look of every seamlab chart: the Okabe–Ito colour-blind-safe palette (ordered so the first colours
// stay distinct in greyscale and on white), readable type sizes, and the chart's own ink (INK): the colours of text,
// rules and grid drawn on its background, which a report page in dark mode restyles (src/report/page.ts).

/** A vega-lite spec as plain JSON (no vega-lite types: its package is ESM-only and notebooks cannot load it). */
export type VegaLiteSpec = Record<string, unknown>;

export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"];

/**
 * The ink a chart draws on its own background, each colour used for that one purpose only: a report page in dark mode
 * maps each value to a dark-mode colour by CSS (src/report/page.ts), so a value here is a contract with that page.
 * Colours drawn on data marks are not ink and stay as they are: the palette, the heatmap's schemes, the white and
 * black numbers inside bars and cells. `halo` is matched by its stroke (a label's outline over lines), `black` (the
 * palette's seventh colour) on lines and symbols only, never on a text, so a heatmap cell's number keeps it.
 */
export const INK = {
  background: "#ffffff",
  text: "#222222",
  muted: "#555555",
  rule: "#444444",
  marker: "#333333",
  axis: "#888888",
  grid: "#e6e6e6",
  margin: "#006d4f",
  halo: "#ffffff",
  black: "#000000",
} as const;

export const CHART_WIDTH = 560;
export const CHART_HEIGHT = 280;

export const SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";

export function baseConfig(): Record<string, unknown> {
  return {
    background: INK.background,
    font: "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
    padding: 8,
    title: {
      fontSize: 15,
      fontWeight: 600,
      anchor: "start",
      subtitleFontSize: 12,
      color: INK.text,
      subtitleColor: INK.muted,
      offset: 10,
    },
    axis: {
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: 500,
      labelColor: INK.text,
      titleColor: INK.text,
      gridColor: INK.grid,
      domainColor: INK.axis,
      tickColor: INK.axis,
      // never cut short: a category such as "overlap 0 + ±1 neighbours" is read whole ("overlap 0 + ±1 neig…")
      labelLimit: 0,
    },
    // labelLimit/titleLimit 0: a legend label or title is never cut short ("reference (124 qu…", "hit rate at the b…");
    // seriesLegend wraps long labels in columns.
    legend: {
      labelFontSize: 11,
      titleFontSize: 12,
      orient: "bottom",
      labelLimit: 0,
      titleLimit: 0,
      labelColor: INK.text,
      titleColor: INK.text,
    },
    header: { labelFontSize: 12, titleFontSize: 12, labelColor: INK.text, titleColor: INK.text },
    range: { category: PALETTE },
    view: { stroke: null },
  };
}

export interface CommonOptions {
  title: string;
  subtitle?: string;
  width?: number;
  height?: number;
}

/**
 * Vega sizes a chart to fit its title, so one long subtitle (an embedder's full name, say) makes the chart wide and
 * the page then scales it down to a thumbnail. Long text is broken into lines at word boundaries instead.
 */
export function wrapTitleText(text: string, width = 90): string | string[] {
  if (text.length <= width) return text;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

export function titleOf(options: CommonOptions): Record<string, unknown> {
  const text = wrapTitleText(options.title, 70);
  return options.subtitle ? { text, subtitle: wrapTitleText(options.subtitle) } : { text };
}

/** Distinct values in order of first appearance: a deterministic legend/colour order that follows the caller's rows. */
export function distinct(rows: Record<string, unknown>[], field: string): unknown[] {
  const seen: unknown[] = [];
  for (const row of rows) {
    const value = row[field];
    if (seen.indexOf(value) < 0) seen.push(value);
  }
  return seen;
}

export function colorScale(rows: Record<string, unknown>[], field: string): Record<string, unknown> {
  const domain = distinct(rows, field);
  return { domain, range: domain.map((_, i) => PALETTE[i % PALETTE.length]) };
}

/** Axis number format: fractions shown as percentages. */
export function axisFormat(percent: boolean | undefined): Record<string, unknown> {
  return percent ? { format: ".0%" } : {};
}

/** Plain JSON copy of the rows, so a spec never shares objects with the caller. */
export function inlineData(rows: Record<string, unknown>[]): Record<string, unknown> {
  return { values: JSON.parse(JSON.stringify(rows)) };
}

/**
 * Width in pixels vega gives a text when it has no canvas (vega-scenegraph's estimateWidth, what the report's
 * renderer lays out with): 0.8 × characters × font size, an over-estimate for proportional fonts.
 */
export function estimateTextWidth(text: string, fontSize: number): number {
  return Math.floor(0.8 * text.length * fontSize);
}

/**
 * A legend of the series below the chart, in as many columns as fit the chart's width with every label whole: one
 * row for short labels, one column for labels as wide as the chart.
 */
export function seriesLegend(labels: readonly unknown[], width: number): Record<string, unknown> {
  const widest = Math.max(0, ...labels.map((label) => estimateTextWidth(String(label), LEGEND_FONT_SIZE)));
  // symbol, gap to the label, and the space between columns (vega's defaults: 8 + 5 + 10 and padding).
  const columns = Math.max(1, Math.min(labels.length, Math.floor(width / (widest + 28))));
  return { columns, symbolOpacity: 1, symbolType: "circle" };
}

const LEGEND_FONT_SIZE = 11;

/**
 * A domain widened to round ends, as d3's scale.nice does with about `count` ticks: set explicitly (with nice off),
 * so the builders know where every value lands and can keep their labels apart.
 */
export function niceDomain(low: number, high: number, count = 5): [number, number] {
  // No values (an empty chart): a unit domain rather than Infinity.
  if (!Number.isFinite(low) || !Number.isFinite(high)) return [0, 1];
  if (!(high > low)) {
    const pad = Math.abs(low) > 0 ? Math.abs(low) * 0.1 : 1;
    return niceDomain(low - pad, high + pad, count);
  }
  const raw = (high - low) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const error = raw / power;
  const step = power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1);
  const round = (v: number) => Number(v.toPrecision(12));
  return [round(Math.floor(low / step) * step), round(Math.ceil(high / step) * step)];
}

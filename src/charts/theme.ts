// Shared look of every chart: the Okabe–Ito colour-blind-safe palette (the first colours stay distinct in greyscale),
// readable type sizes, and INK, which a report page in dark mode restyles.

/** A vega-lite spec as plain JSON (no vega-lite types: its package is ESM-only and notebooks cannot load it). */
export type VegaLiteSpec = Record<string, unknown>;

export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"];

/**
 * The colours a chart draws on its own background, each for one purpose only: src/report/page.ts maps each value to
 * a dark-mode colour by CSS, so a value here is a contract with that page. Colours on data marks are not ink. `halo`
 * is matched by its stroke; `black` on lines and symbols only, so a heatmap cell's black number keeps it.
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
      labelLimit: 0, // never cut short ("overlap 0 + ±1 neig…")
    },
    // never cut short either ("reference (124 qu…"): seriesLegend wraps long labels in columns
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

/** Vega widens a chart to fit its title (a long subtitle makes a thumbnail of it): long text is broken into lines. */
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

/** Distinct values in order of first appearance: the legend and colour order follow the caller's rows. */
export function distinct(rows: Record<string, unknown>[], field: string): unknown[] {
  return [...new Set(rows.map((row) => row[field]))];
}

export function colorScale(rows: Record<string, unknown>[], field: string): Record<string, unknown> {
  const domain = distinct(rows, field);
  return { domain, range: domain.map((_, i) => PALETTE[i % PALETTE.length]) };
}

/** A colour per series with the legend below, or the first colour when rows name no series. */
export function seriesColor(rows: Record<string, unknown>[], series: string, width: number): Record<string, unknown> {
  if (!rows.some((row) => row[series] !== undefined)) return { value: PALETTE[0] };
  const legend = seriesLegend(distinct(rows, series), width);
  return { field: series, type: "nominal", scale: colorScale(rows, series), title: null, legend };
}

export const axisFormat = (percent: boolean | undefined): Record<string, unknown> => (percent ? { format: ".0%" } : {});

/** Plain JSON copy of the rows, so a spec never shares objects with the caller. */
export function inlineData(rows: Record<string, unknown>[]): Record<string, unknown> {
  return { values: JSON.parse(JSON.stringify(rows)) };
}

/** The width vega gives a text without a canvas (vega-scenegraph's estimateWidth), which the report renders with. */
export const estimateTextWidth = (text: string, fontSize: number): number => Math.floor(0.8 * text.length * fontSize);

/** A legend below the chart in as many columns as fit its width, labels whole, symbols solid (not a band's opacity). */
export function seriesLegend(labels: readonly unknown[], width: number): Record<string, unknown> {
  const widest = Math.max(0, ...labels.map((label) => estimateTextWidth(String(label), LEGEND_FONT_SIZE)));
  // symbol, gap to the label, and the space between columns (vega's defaults: 8 + 5 + 10 and padding).
  const columns = Math.max(1, Math.min(labels.length, Math.floor(width / (widest + 28))));
  return { columns, symbolOpacity: 1, symbolType: "circle" };
}

const LEGEND_FONT_SIZE = 11;

/** Round ends as d3's scale.nice gives, set explicitly so the builders know where each value lands to place labels. */
export function niceDomain(low: number, high: number, count = 5): [number, number] {
  // no values (an empty chart): a unit domain rather than Infinity
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

// Shared look of every seamlab chart: the Okabe–Ito colour-blind-safe palette (ordered so the first colours
// stay distinct in greyscale and on white), readable type sizes, a light background that also works when the
// report is in dark mode (charts sit on a light card there).

/** A vega-lite spec as plain JSON (no vega-lite types: its package is ESM-only and notebooks cannot load it). */
export type VegaLiteSpec = Record<string, unknown>;

export const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#F0E442"];

export const CHART_WIDTH = 560;
export const CHART_HEIGHT = 280;

export const SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";

export function baseConfig(): Record<string, unknown> {
  return {
    background: "#ffffff",
    font: "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
    padding: 8,
    title: {
      fontSize: 15,
      fontWeight: 600,
      anchor: "start",
      subtitleFontSize: 12,
      subtitleColor: "#555555",
      offset: 10,
    },
    axis: {
      labelFontSize: 11,
      titleFontSize: 12,
      titleFontWeight: 500,
      gridColor: "#e6e6e6",
      domainColor: "#888888",
      tickColor: "#888888",
    },
    legend: { labelFontSize: 11, titleFontSize: 12, orient: "bottom" },
    header: { labelFontSize: 12, titleFontSize: 12 },
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

// A metric against a swept parameter per series, with CI bands and labelled knees. Groups with too few queries (by
// their rows' `n`) get a small panel of their own, so their wide bands never set the main chart's y axis.
import { LABEL_FONT_SIZE, pixelOf, placeRuleLabels, spreadVertically, withHalo } from "./label-layout";
import {
  CHART_HEIGHT,
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
  seriesColor,
  titleOf,
  wrapTitleText,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface Knee {
  x: number;
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
  /** Shaded horizontal bands (e.g. the margin a difference must stay within), labelled beside the plot. */
  yBands?: { from: number; to: number; label: string }[];
  /** Dashed horizontal rules (e.g. y = 0). */
  yRules?: number[];
  /** Field with the queries behind each row (default "n"); rows without it count as enough. */
  count?: string;
}

/** Below this many queries a group's hit rate is too loose to share the main chart's axis. */
const MIN_GROUP_QUERIES = 30;

const SMALL_PANEL_HEIGHT = 110;
/** A band's label beside the plot is wrapped to lines this long, so the chart stays narrow. */
const BESIDE_PLOT_CHARS = 18;
const LABEL_LINE = 13;

function numbersOf(rows: readonly Record<string, unknown>[], fields: readonly string[]): number[] {
  return rows.flatMap((row) => fields.map((f) => row[f])).filter((v): v is number => typeof v === "number");
}

/** A y domain over `values` with round ends, inside [0, 1] for rates when the values are. */
function yDomainOf(values: number[], percent: boolean | undefined, zero: boolean): [number, number] {
  const all = zero ? [...values, 0] : values;
  const lo = all.length > 0 ? Math.min(...all) : 0;
  const hi = all.length > 0 ? Math.max(...all) : 1;
  const [a, b] = niceDomain(lo, hi);
  return percent && lo >= 0 && hi <= 1 ? [Math.max(0, a), Math.min(1, b)] : [a, b];
}

export function lineWithBand(rows: Record<string, unknown>[], options: LineCIOptions): VegaLiteSpec {
  const { x = "x", y = "y", low = "low", high = "high", series = "series", count = "n" } = options;
  const width = options.width ?? CHART_WIDTH;
  const height = options.height ?? CHART_HEIGHT;
  const hasBand = rows.some((row) => typeof row[low] === "number" && typeof row[high] === "number");
  const hasSeries = rows.some((row) => row[series] !== undefined);
  const tooFew = (row: Record<string, unknown>) => typeof row[count] === "number" && row[count] < MIN_GROUP_QUERIES;
  const small = hasSeries
    ? distinct(rows, series).filter((name) => rows.some((r) => r[series] === name && tooFew(r)))
    : [];
  const mainRows = rows.filter((row) => !small.includes(row[series]));
  const split = small.length > 0 && mainRows.length > 0;
  const shown = split ? mainRows : rows;
  const color = seriesColor(rows, series, width);
  const knees = options.knees ?? [];
  const xs = [...numbersOf(rows, [x]), ...knees.map((k) => k.x)];
  const xDomain = niceDomain(Math.min(...xs), Math.max(...xs));
  const xScale = { domain: xDomain, nice: false, zero: false };
  const xEnc = { field: x, type: "quantitative", title: options.xTitle, scale: xScale };
  const bands = options.yBands ?? [];
  const yDomain = yDomainOf(
    [...numbersOf(shown, [y, low, high]), ...bands.flatMap((b) => [b.from, b.to]), ...(options.yRules ?? [])],
    options.percent,
    options.zero ?? false,
  );
  const yScale = { domain: yDomain, nice: false, zero: false };
  const yAxis = { title: options.yTitle, axis: axisFormat(options.percent), scale: yScale };
  /** The CI band and the line of every series in `data` (null: the chart's own), on `axis`, faded below opacity 1. */
  const seriesLayers = (data: Record<string, unknown>[] | null, axis: Record<string, unknown>, opacity = 1) => {
    const own = data ? { data: inlineData(data) } : {};
    const band = { field: low, type: "quantitative", ...axis };
    const line = {
      ...own,
      mark: { type: "line", point: { filled: true, size: 36 }, strokeWidth: 2, tooltip: true, opacity },
      encoding: { x: xEnc, y: { field: y, type: "quantitative", ...axis }, color },
    };
    const area = {
      ...own,
      mark: { type: "area", opacity: 0.18 * opacity },
      encoding: { x: xEnc, y: band, y2: { field: high }, color },
    };
    return hasBand ? [area, line] : [line];
  };

  /**
   * "n = 2" beside the last point of each small series, spread so none overprint: a swatch in the series' colour, then
   * the text in ink (a light series colour would not read on white, nor a dark one in dark mode).
   */
  const countLabels = (panelHeight: number, panelDomain: [number, number]) => {
    const ends = small.map((name) => {
      const own = rows.filter((row) => row[series] === name && typeof row[y] === "number");
      const last = own.reduce((a, b) => ((b[x] as number) > (a[x] as number) ? b : a), own[0]);
      const n = Math.max(...own.map((row) => (typeof row[count] === "number" ? (row[count] as number) : 0)));
      return { name, y: last ? pixelOf(last[y] as number, panelDomain, panelHeight, true) : 0, n };
    });
    const wanted = ends.map((e) => e.y);
    const ys = spreadVertically(wanted, panelHeight);
    const textX = width + 6 + COUNT_TEXT_OFFSET;
    const palette = colorScale(rows, series) as { domain: unknown[]; range: string[] };
    return ends.flatMap((end, i) => [
      {
        name: `beside_plot_count_swatch_${i}`,
        data: { values: [{}] },
        mark: { type: "point", shape: "circle", filled: true, size: 40, opacity: 1 },
        encoding: {
          // a 40 px² dot spans about 5-13 px right of the plot; the text starts at textX (15 px)
          x: { value: width + 9 },
          y: { value: ys[i] },
          color: { value: palette.range[palette.domain.indexOf(end.name)] },
        },
      },
      textAt(textX, ys[i], `n = ${end.n}`, { fontWeight: 600, color: INK.text }, `beside_plot_count_${i}`),
    ]);
  };
  const layers: Record<string, unknown>[] = [];
  // A band's label sits beside the plot, level with its band: inside, it ran over any line point in the band.
  const bandLabels = bands.map((band) => wrapTitleText(band.label, BESIDE_PLOT_CHARS));
  const bandYs = spreadVertically(
    bands.map((band) => pixelOf((band.from + band.to) / 2, yDomain, height, true)),
    height,
    LABEL_LINE * Math.max(1, ...bandLabels.map((lines) => (Array.isArray(lines) ? lines.length : 1))),
  );
  // when every group is small, their "n = …" labels sit beside the plot too, before the band's label
  const counts = !split && small.length > 0 ? numbersOf(rows, [count]) : [];
  const countsWidth = COUNT_TEXT_OFFSET + estimateTextWidth(`n = ${Math.max(...counts)}`, LABEL_FONT_SIZE) + 10;
  const bandX = width + 6 + (counts.length > 0 ? countsWidth : 0);
  bands.forEach((band, i) => {
    layers.push(
      {
        data: { values: [{}] },
        mark: { type: "rect", color: "#009E73", opacity: 0.12 },
        encoding: { y: { datum: band.from, type: "quantitative", ...yAxis }, y2: { datum: band.to } },
      },
      textAt(bandX, bandYs[i], bandLabels[i], { lineHeight: LABEL_LINE, color: INK.margin }, `beside_plot_band_${i}`),
    );
  });
  for (const rule of options.yRules ?? []) {
    layers.push({
      data: { values: [{}] },
      mark: { type: "rule", color: INK.axis, strokeDash: [2, 3] },
      encoding: { y: { datum: rule, type: "quantitative", ...yAxis } },
    });
  }
  layers.push(...seriesLayers(shown === rows ? null : mainRows, yAxis));
  if (!split && small.length > 0) layers.push(...countLabels(height, yDomain));

  const sorted = knees.slice().sort((a, b) => a.x - b.x);
  const ruleLabels = sorted.map((k) => ({ at: pixelOf(k.x, xDomain, width), text: k.label }));
  const placed = placeRuleLabels(ruleLabels, width, height);
  const unplaced: string[] = [];
  sorted.forEach((knee, i) => {
    // one-row data: drawn once, not once per data row
    layers.push({
      data: { values: [{}] },
      mark: { type: "rule", color: INK.rule, strokeDash: [5, 4], strokeWidth: 1.5 },
      encoding: { x: { datum: knee.x, type: "quantitative", scale: xScale } },
    });
    const at = placed[i];
    if (!at) unplaced.push(`${knee.label} (dashed rule at ${knee.x})`);
    else {
      const style = { align: at.align, baseline: "top", fontWeight: 600, color: INK.text };
      layers.push(...withHalo(textAt(at.x, at.y, knee.label, style)));
    }
  });
  const also = unplaced.length > 0 ? `also marked: ${unplaced.join("; ")}` : "";
  const title = titleOf({ ...options, subtitle: [options.subtitle, also].filter(Boolean).join("; ") });
  const main = { width, height, layer: layers };
  const base = { $schema: SCHEMA, title, data: inlineData(rows), config: baseConfig() };
  if (!split) return { ...base, ...main };
  const smallRows = rows.filter((row) => small.includes(row[series]));
  const smallDomain = yDomainOf(numbersOf(smallRows, [y, low, high]), options.percent, false);
  const smallAxis = {
    title: null,
    axis: { ...axisFormat(options.percent), tickCount: 3 },
    scale: { domain: smallDomain, nice: false, zero: false },
  };
  return {
    ...base,
    vconcat: [
      main,
      {
        width,
        height: SMALL_PANEL_HEIGHT,
        title: {
          text: `Under ${MIN_GROUP_QUERIES} queries: too few to read, on their own scale`,
          fontSize: 12,
          fontWeight: 500,
          color: INK.muted,
        },
        layer: [...seriesLayers(smallRows, smallAxis, 0.55), ...countLabels(SMALL_PANEL_HEIGHT, smallDomain)],
      },
    ],
    resolve: { scale: { y: "independent", color: "shared" }, legend: { color: "shared" } },
  };
}

/** How far right of the swatch a small series' "n = …" text starts. */
const COUNT_TEXT_OFFSET = 9;

/** A label at pixels (x, y); layout checks know a layer named `beside_plot…` is outside the plot on purpose. */
function textAt(
  x: number,
  y: number,
  text: string | string[],
  style: Record<string, unknown>,
  name?: string,
): Record<string, unknown> {
  return {
    ...(name ? { name } : {}),
    data: { values: [{}] },
    mark: { type: "text", align: "left", baseline: "middle", fontSize: LABEL_FONT_SIZE, ...style },
    encoding: { x: { value: x }, y: { value: y }, text: { value: text } },
  };
}

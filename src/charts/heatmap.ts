// A metric over two swept parameters, cells labelled with their value; the colour scheme is anchored at 0 (rates: 0
// to 100%), so 57% against 62% looks as close as it is instead of spanning the scale.
import {
  SCHEMA,
  axisFormat,
  baseConfig,
  inlineData,
  estimateTextWidth,
  niceDomain,
  titleOf,
  wrapTitleText,
  type CommonOptions,
  type VegaLiteSpec,
} from "./theme";

export interface HeatmapOptions extends CommonOptions {
  x?: string;
  y?: string;
  value?: string;
  xTitle: string;
  yTitle: string;
  valueTitle: string;
  percent?: boolean;
}

export function heatmap(rows: Record<string, unknown>[], options: HeatmapOptions): VegaLiteSpec {
  const { x = "x", y = "y", value = "value" } = options;
  const numbers = rows.map((row) => row[value]).filter((v): v is number => typeof v === "number");
  const { scale, dark } = colourOf(numbers, options.percent);
  const sortNumeric = (field: string) => {
    const values = Array.from(new Set(rows.map((row) => row[field])));
    return values.every((v) => typeof v === "number") ? (values as number[]).slice().sort((a, b) => a - b) : values;
  };
  const format = options.percent ? ".0%" : ".2~f";
  const yTitle = fittedYTitle(options.yTitle, new Set(rows.map((row) => row[y])).size);
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    width: options.width ?? { step: 44 },
    height: options.height ?? { step: yTitle.step },
    encoding: {
      x: { field: x, type: "ordinal", title: options.xTitle, sort: sortNumeric(x), axis: { labelAngle: 0 } },
      y: { field: y, type: "ordinal", title: yTitle.text, sort: sortNumeric(y) },
    },
    layer: [
      {
        mark: { type: "rect", tooltip: true },
        encoding: {
          color: {
            field: value,
            type: "quantitative",
            title: options.valueTitle,
            scale,
            // as tall as the cells, so the legend does not stretch a short chart
            legend: {
              orient: "right",
              gradientLength: Math.max(60, 30 * new Set(rows.map((r) => r[y])).size),
              ...axisFormat(options.percent),
            },
          },
        },
      },
      {
        mark: { type: "text", fontSize: 10 },
        encoding: {
          text: { field: value, type: "quantitative", format },
          color: { condition: { test: dark(`datum[${JSON.stringify(value)}]`), value: "#ffffff" }, value: "#000000" },
        },
      },
    ],
    config: baseConfig(),
  };
}

/** Viridis from 0 to the largest value (1 for rates); with values below 0, a diverging scheme; and which are dark. */
function colourOf(
  numbers: number[],
  percent: boolean | undefined,
): { scale: Record<string, unknown>; dark: (v: string) => string } {
  const lo = numbers.length > 0 ? Math.min(...numbers) : 0;
  const hi = numbers.length > 0 ? Math.max(...numbers) : 1;
  if (lo < 0) {
    const m = niceDomain(0, Math.max(-lo, hi))[1];
    return {
      scale: { scheme: "blueorange", domain: [-m, m], domainMid: 0 },
      dark: (v) => `abs(${v}) > ${0.6 * m}`,
    };
  }
  const top = percent && hi <= 1 ? 1 : niceDomain(0, hi)[1];
  return { scale: { scheme: "viridis", domain: [0, top] }, dark: (v) => `${v} < ${0.5 * top}` };
}

/** A y title longer than the rows are tall would run into the x title: two lines, and rows tall enough for them. */
function fittedYTitle(title: string, rowCount: number): { text: string | string[]; step: number } {
  const fits = (text: string) => estimateTextWidth(text, 12) + 8 <= 30 * rowCount;
  if (fits(title)) return { text: title, step: 30 };
  const lines = wrapTitleText(title, Math.ceil(title.length / 2));
  const longest = Math.max(...(Array.isArray(lines) ? lines : [lines]).map((line) => estimateTextWidth(line, 12)));
  return { text: lines, step: Math.max(30, Math.ceil((longest + 8) / Math.max(1, rowCount))) };
}

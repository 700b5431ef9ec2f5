// A metric over two swept parameters (e.g. distinct passages in the top-k over overlap × depth), cells
// labelled with their value so the chart reads without the colour scale; a sequential colour-blind-safe scheme.
import { SCHEMA, axisFormat, baseConfig, inlineData, titleOf, type CommonOptions, type VegaLiteSpec } from "./theme";

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
  const x = options.x ?? "x";
  const y = options.y ?? "y";
  const value = options.value ?? "value";
  const numbers = rows.map((row) => row[value]).filter((v): v is number => typeof v === "number");
  const mid = numbers.length > 0 ? (Math.min(...numbers) + Math.max(...numbers)) / 2 : 0;
  const sortNumeric = (field: string) => {
    const values = Array.from(new Set(rows.map((row) => row[field])));
    return values.every((v) => typeof v === "number") ? (values as number[]).slice().sort((a, b) => a - b) : values;
  };
  const format = options.percent ? ".0%" : ".2~f";
  return {
    $schema: SCHEMA,
    title: titleOf(options),
    data: inlineData(rows),
    width: options.width ?? { step: 44 },
    height: options.height ?? { step: 30 },
    encoding: {
      x: { field: x, type: "ordinal", title: options.xTitle, sort: sortNumeric(x), axis: { labelAngle: 0 } },
      y: { field: y, type: "ordinal", title: options.yTitle, sort: sortNumeric(y) },
    },
    layer: [
      {
        mark: { type: "rect", tooltip: true },
        encoding: {
          color: {
            field: value,
            type: "quantitative",
            title: options.valueTitle,
            scale: { scheme: "viridis" },
            legend: { orient: "right", ...axisFormat(options.percent) },
          },
        },
      },
      {
        mark: { type: "text", fontSize: 10 },
        encoding: {
          text: { field: value, type: "quantitative", format },
          // viridis is dark at the low end: white labels there, black above the midpoint.
          color: {
            condition: { test: `datum[${JSON.stringify(value)}] < ${mid}`, value: "#ffffff" },
            value: "#000000",
          },
        },
      },
    ],
    config: baseConfig(),
  };
}

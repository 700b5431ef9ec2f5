export { overlapHistogram, type HistogramOptions } from "./histogram";
export { barWithCI, type BarCIOptions } from "./bar";
export { lineWithBand, type LineCIOptions, type Knee } from "./line";
export { heatmap, type HeatmapOptions } from "./heatmap";
export { scatter, type ScatterOptions } from "./scatter";
export { PALETTE, baseConfig, type VegaLiteSpec, type CommonOptions } from "./theme";

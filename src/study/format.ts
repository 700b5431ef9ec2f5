// Numbers written into notebook prose: one rounding rule everywhere, so the text and the tables agree.
import type { PairedComparison } from "../stats/paired";
import { shownDirection } from "../stats/paired-score";
import { percentNumber, signedPoints } from "../stats/format";

/** A fraction in [0, 1] as a percentage, e.g. 0.6634 -> "66.3%". */
export function pct(fraction: number, digits = 1): string {
  return Number.isFinite(fraction) ? `${percentNumber(fraction, digits)}%` : "n/a";
}

/** A 95% interval of fractions as "[61.2%, 71.0%]". */
export function pctInterval(interval: { low: number; high: number }, digits = 1): string {
  return `[${pct(interval.low, digits)}, ${pct(interval.high, digits)}]`;
}

/** A fraction as percentage points rounded to one decimal, for table cells: 0.6634 -> 66.3. */
export function points(fraction: number): number {
  return Math.round(1000 * fraction) / 10;
}

/** A paired 95% interval of differences (fractions) as signed points with one decimal: "[−0.7, +4.3]". */
export function pointsInterval(low: number, high: number): string {
  const signed = (x: number) => `${points(x) >= 0 ? "+" : ""}${points(x).toFixed(1)}`;
  return `[${signed(low)}, ${signed(high)}]`;
}

/** A difference of fractions as signed points for prose, with a typographic minus: 0.017 -> "+1.7", -0.004 -> "−0.4". */
export function signedPointsText(difference: number): string {
  return signedPoints(difference, { minus: "−" });
}

/** An interval of differences for prose: "[−0.7, +4.3]" (`separator` ", ") or "−0.7 to +4.3" (" to "). */
export function signedInterval(low: number, high: number, separator = ", "): string {
  const text = `${signedPointsText(low)}${separator}${signedPointsText(high)}`;
  return separator === ", " ? `[${text}]` : text;
}

/** Which way the paired rule shows A against B (the CI excludes 0 and the exact McNemar test agrees), or null. */
export function pairedShown(c: PairedComparison): "better" | "worse" | null {
  const direction = shownDirection({ ...c.diffCI, mcnemarP: c.mcnemarP }, c.level);
  return direction === "above" ? "better" : direction === "below" ? "worse" : null;
}

/** Kendall's tau and the like: two decimals, or "n/a" for NaN. */
export function twoDecimals(x: number): string {
  return Number.isNaN(x) ? "n/a" : x.toFixed(2);
}

/** Rows as a GitHub markdown table (`|` escaped); `align` gives a column's rule ("---", "---:"). */
export function markdownTable(
  rows: readonly Record<string, string | number>[],
  align: (column: string) => string = () => "---",
): string {
  if (rows.length === 0) return "(nothing measured)";
  const columns = Object.keys(rows[0]);
  const line = (cells: (string | number)[]) => `| ${cells.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`;
  return [line(columns), line(columns.map(align)), ...rows.map((r) => line(columns.map((c) => r[c])))].join("\n");
}

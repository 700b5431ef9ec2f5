// Numbers written into notebook prose: one rounding rule everywhere, so the text and the tables agree.
import { percentNumber } from "../stats/format";

/** A fraction in [0, 1] as a percentage, e.g. 0.6634 -> "66.3%". */
export function pct(fraction: number, digits = 1): string {
  return Number.isFinite(fraction) ? `${percentNumber(fraction, digits)}%` : "n/a";
}

/** A 95% interval of fractions as "[61.2%, 71.0%]". */
export function pctInterval(interval: { low: number; high: number }, digits = 1): string {
  return `[${pct(interval.low, digits)}, ${pct(interval.high, digits)}]`;
}

/** A number with thousands separators and at most `digits` decimals, e.g. 1212842 -> "1,212,842". */
export function num(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A p-value as prose: "p = 0.034" or "p < 0.001". */
export function pValue(p: number): string {
  return p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
}

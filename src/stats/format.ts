// How statistics are written as numbers of percent: one rounding rule, below every layer that prints one
// (experiment's verdict sentences, study's prose and tables, the CLI's columns).

/**
 * A fraction as a number of percent (or a difference of fractions as percentage points) without the sign, for
 * table columns whose header says "%" or "(pts)": 0.6634 -> "66.3"; "n/a" when not finite.
 */
export function percentNumber(fraction: number, digits = 1): string {
  return Number.isFinite(fraction) ? (100 * fraction).toFixed(digits) : "n/a";
}

/**
 * A number with thousands separators, rounded to at most `digits` decimals (exactly `digits` with `fixed`), the
 * one way seamlab writes counts and sizes in prose, tables and CLI lines: 1537 -> "1,537", (59.294, 1) -> "59.3",
 * (3, 1, { fixed: true }) -> "3.0"; "n/a" when not finite.
 */
export function thousands(value: number, digits = 0, options: { fixed?: boolean } = {}): string {
  if (!Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", {
    maximumFractionDigits: digits,
    minimumFractionDigits: options.fixed ? digits : 0,
  });
}

/** A p-value in plain notation, never "0": "< 0.001", "0.004", "0.29" (two decimals from 0.01 up). */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  return p.toFixed(p < 0.01 ? 3 : 2);
}

/** A p-value for prose: "p = 0.29" or "p < 0.001". */
export function pText(p: number): string {
  const text = formatP(p);
  return text.startsWith("<") ? `p ${text}` : `p = ${text}`;
}

/**
 * A difference of fractions as signed percentage points: 0.012 -> "+1.2", -0.004 -> "-0.4". Prose passes
 * `minus: "−"` (U+2212) for a typographic minus.
 */
export function signedPoints(difference: number, options: { digits?: number; minus?: string } = {}): string {
  if (!Number.isFinite(difference)) return "n/a";
  const sign = difference >= 0 ? "+" : (options.minus ?? "-");
  return `${sign}${percentNumber(Math.abs(difference), options.digits ?? 1)}`;
}

// One rounding rule for statistics written as text, below every layer that prints one.

/** A fraction as unsigned percent (or points) for "%" and "(pts)" columns: 0.6634 -> "66.3"; "n/a" if not finite. */
export function percentNumber(fraction: number, digits = 1): string {
  return Number.isFinite(fraction) ? (100 * fraction).toFixed(digits) : "n/a";
}

/** Thousands separators, at most `digits` decimals (exactly with `fixed`): 1537 -> "1,537", (3, 1, fixed) -> "3.0". */
export function thousands(value: number, digits = 0, options: { fixed?: boolean } = {}): string {
  if (!Number.isFinite(value)) return "n/a";
  return value.toLocaleString("en-US", {
    maximumFractionDigits: digits,
    minimumFractionDigits: options.fixed ? digits : 0,
  });
}

/** A p-value, never "0": "< 0.001", "0.004", "0.29". */
export function formatP(p: number): string {
  if (p < 0.001) return "< 0.001";
  return p.toFixed(p < 0.01 ? 3 : 2);
}

export function pText(p: number): string {
  const text = formatP(p);
  return text.startsWith("<") ? `p ${text}` : `p = ${text}`;
}

/** Signed percentage points: 0.012 -> "+1.2"; prose passes `minus: "−"` (U+2212). */
export function signedPoints(difference: number, options: { digits?: number; minus?: string } = {}): string {
  if (!Number.isFinite(difference)) return "n/a";
  const sign = difference >= 0 ? "+" : (options.minus ?? "-");
  return `${sign}${percentNumber(Math.abs(difference), options.digits ?? 1)}`;
}

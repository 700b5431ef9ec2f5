import { SeamlabError } from "../core/errors";

/** Reads a whole-number option, naming the flag when the value is missing or not an integer in range. */
export function intOption(
  values: Record<string, unknown>,
  name: string,
  fallback: number | undefined,
  { min = 0 }: { min?: number } = {},
): number {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback === undefined) throw new SeamlabError(`--${name} is required (a whole number >= ${min}).`);
    return fallback;
  }
  const text = String(raw).trim();
  if (!/^-?\d+$/.test(text)) throw new SeamlabError(`--${name} must be a whole number, got "${text}".`);
  const value = Number(text);
  if (value < min) throw new SeamlabError(`--${name} must be >= ${min}, got ${value}.`);
  return value;
}

/** Reads a comma-separated list of whole numbers (e.g. `--overlaps 0,50,100`). */
export function intListOption(
  values: Record<string, unknown>,
  name: string,
  fallback: number[] | undefined,
  { min = 0 }: { min?: number } = {},
): number[] {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback === undefined) throw new SeamlabError(`--${name} is required (comma-separated whole numbers).`);
    return fallback;
  }
  const parts = String(raw)
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) throw new SeamlabError(`--${name} must list at least one whole number.`);
  return parts.map((part) => {
    if (!/^-?\d+$/.test(part))
      throw new SeamlabError(`--${name} must be comma-separated whole numbers, got "${part}".`);
    const value = Number(part);
    if (value < min) throw new SeamlabError(`--${name} values must be >= ${min}, got ${value}.`);
    return value;
  });
}

/** Reads a finite number option (e.g. a price or a threshold). */
export function numberOption(values: Record<string, unknown>, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = Number(String(raw).trim());
  if (String(raw).trim() === "" || !Number.isFinite(value)) {
    throw new SeamlabError(`--${name} must be a number, got "${String(raw)}".`);
  }
  return value;
}

/** Reads a required string option. */
export function stringOption(values: Record<string, unknown>, name: string, fallback?: string): string {
  const raw = values[name];
  if (raw === undefined || raw === "") {
    if (fallback === undefined) throw new SeamlabError(`--${name} is required.`);
    return fallback;
  }
  return String(raw);
}

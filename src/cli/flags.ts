/** Flag readers: a bad value stops the command before any work, naming the flag, what it takes and what it got. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { SeamlabError } from "../core/errors";

export type FlagValues = Record<string, unknown>;

export interface NumberBounds {
  min?: number;
  max?: number;
  /** Printed after the range, e.g. "chars". */
  unit?: string;
  exclusiveMin?: boolean;
}

/** Sane upper bounds shared by several commands (a value beyond them is a typo, not a wish). */
export const LIMITS = {
  size: 10_000_000,
  k: 10_000,
  parallel: 256,
  dims: 65_536,
  seed: 2 ** 32 - 1,
} as const;

const withCommas = (value: number): string =>
  Number.isInteger(value) && Math.abs(value) >= 10_000
    ? String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
    : String(value);

/** "a whole number from 1 to 10,000,000 chars" — what the flag accepts, for messages and help. */
export function describeRange(kind: "a whole number" | "a number", bounds: NumberBounds): string {
  const { min, max, unit, exclusiveMin } = bounds;
  const unitText = unit ? ` ${unit}` : "";
  if (min !== undefined && max !== undefined) {
    if (exclusiveMin) return `${kind} above ${withCommas(min)} and at most ${withCommas(max)}${unitText}`;
    return `${kind} from ${withCommas(min)} to ${withCommas(max)}${unitText}`;
  }
  if (min !== undefined) return `${kind} ${exclusiveMin ? ">" : ">="} ${withCommas(min)}${unitText}`;
  if (max !== undefined) return `${kind} <= ${withCommas(max)}${unitText}`;
  return `${kind}${unitText}`;
}

function parseNumber(text: string): number | undefined {
  // Number("") is 0 and Number("0x10") is 16: accept plain decimal notation only.
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function checkNumber(flag: string, text: string, whole: boolean, bounds: NumberBounds, item = ""): number {
  const kind = whole ? "a whole number" : "a number";
  const accepted = describeRange(kind, bounds);
  const value = parseNumber(text);
  const got = item ? `${item} "${text}"` : `"${text}"`;
  if (value === undefined) throw new SeamlabError(`--${flag} must be ${accepted}; got ${got}.`);
  const { min, max, exclusiveMin } = bounds;
  const below = min !== undefined && (exclusiveMin ? value <= min : value < min);
  const above = max !== undefined && value > max;
  if (below || above) throw new SeamlabError(`--${flag} must be ${accepted}; got ${got}, which is out of range.`);
  if (whole && !Number.isInteger(value)) throw new SeamlabError(`--${flag} must be ${accepted}; got ${got}.`);
  return value;
}

function rawText(values: FlagValues, flag: string): string | undefined {
  return values[flag] === undefined ? undefined : String(values[flag]).trim();
}

/** A whole-number flag within bounds; `fallback` when absent (required when `fallback` is undefined). */
export function intFlag(values: FlagValues, flag: string, fallback: number | undefined, bounds: NumberBounds): number {
  const text = rawText(values, flag);
  if (text !== undefined) return checkNumber(flag, text, true, bounds);
  if (fallback === undefined)
    throw new SeamlabError(`--${flag} is required (${describeRange("a whole number", bounds)}).`);
  return fallback;
}

export function optionalIntFlag(values: FlagValues, flag: string, bounds: NumberBounds): number | undefined {
  return rawText(values, flag) === undefined ? undefined : intFlag(values, flag, undefined, bounds);
}

export function numberFlag(values: FlagValues, flag: string, fallback: number, bounds: NumberBounds): number {
  const text = rawText(values, flag);
  return text === undefined ? fallback : checkNumber(flag, text, false, bounds);
}

export function commaList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** A comma-separated list of whole numbers, each within bounds; duplicates are refused (one point, computed twice). */
export function intListFlag(
  values: FlagValues,
  flag: string,
  fallback: number[] | undefined,
  bounds: NumberBounds,
): number[] {
  const text = rawText(values, flag);
  if (text === undefined && fallback === undefined)
    throw new SeamlabError(`--${flag} is required (comma-separated, each ${describeRange("a whole number", bounds)}).`);
  if (text === undefined) return fallback!;
  const parts = commaList(text);
  if (parts.length === 0) throw new SeamlabError(`--${flag} must list at least one whole number; got "${text}".`);
  const list = parts.map((part) => checkNumber(flag, part, true, bounds, "item"));
  const twice = list.find((value, i) => list.indexOf(value) !== i);
  if (twice !== undefined) throw new SeamlabError(`--${flag} lists ${twice} more than once; give each value once.`);
  return list;
}

/** A string flag; required when `fallback` is undefined. An empty value counts as missing. */
export function stringFlag(values: FlagValues, flag: string, fallback?: string): string {
  const raw = values[flag];
  if (raw !== undefined && raw !== "") return String(raw);
  if (fallback === undefined) throw new SeamlabError(`--${flag} is required.`);
  return fallback;
}

export function choiceFlag<T extends string>(values: FlagValues, flag: string, choices: readonly T[], fallback: T): T {
  if (values[flag] === undefined) return fallback;
  const text = String(values[flag]);
  if (!(choices as readonly string[]).includes(text))
    throw new SeamlabError(`--${flag} must be ${choices.join(" or ")}; got "${text}".`);
  return text as T;
}

export function refuseTogether(values: FlagValues, a: string, b: string, why: string): void {
  if (values[a] !== undefined && values[b] !== undefined)
    throw new SeamlabError(`--${a} and --${b} cannot be used together: ${why}`);
}

/** parseArgs options: flags taking a value, then switches. */
export function flagOptions<const S extends string, const B extends string = never>(
  strings: readonly S[],
  booleans: readonly B[] = [],
) {
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const name of strings) options[name] = { type: "string" };
  for (const name of booleans) options[name] = { type: "boolean" };
  return options as { [K in S]: { type: "string" } } & { [K in B]: { type: "boolean" } };
}

const helpFlag = { help: { type: "boolean", short: "h" } } as const;
type Options = NonNullable<ParseArgsConfig["options"]>;

/** A command's flags and positionals, read strictly, with -h/--help; undefined once --help was asked for and printed. */
export async function commandArgs<O extends Options>(args: string[], flags: O, help: string, allowPositionals = false) {
  const parsed = parseArgs({ args, options: { ...flags, ...helpFlag }, strict: true, allowPositionals });
  if (!(parsed.values as FlagValues).help) return parsed;
  process.stdout.write(help + "\n");
  return undefined;
}

/** `commandArgs` without positionals: the flags' values. */
export async function commandFlags<O extends Options>(argv: string[], options: O, help: string) {
  return (await commandArgs(argv, options, help))?.values;
}

import { SeamlabError } from "../core/errors";

/** Absolute (in the size's unit) or a share of the chunk size ("10%"), as a grid over several sizes needs. */
export type OverlapSetting = number | { percent: number };

/** The default grid, in `seamlab sweep` and notebook 03 alike (test/notebooks/defaults.test.ts). */
export const DEFAULT_SWEEP_OVERLAPS: readonly number[] = [0, 50, 100, 200, 400];

/** Parses "0,10%,20%" or "0,50,100" (mixed is allowed); names the flag and the bad item. */
export function parseOverlapList(text: string, flag = "--overlaps"): OverlapSetting[] {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  if (items.length === 0)
    throw new SeamlabError(`${flag} needs at least one overlap, e.g. ${flag} 0,100,200 or 0,10%,20%.`);
  const repeated = items.find((item, i) => items.indexOf(item) !== i);
  if (repeated !== undefined) throw new SeamlabError(`${flag} lists ${repeated} more than once; give each value once.`);
  return items.map((item) => {
    const share = /^(\d+(?:\.\d+)?)%$/.exec(item);
    if (share) {
      const percent = Number(share[1]);
      if (!(percent < 100)) throw new SeamlabError(`${flag}: "${item}" must be below 100% of the chunk size.`);
      return { percent };
    }
    if (!/^\d+$/.test(item))
      throw new SeamlabError(
        `${flag}: "${item}" is neither a whole number nor a share like 10%; e.g. ${flag} 0,100,200 or 0,10%,20%.`,
      );
    return Number(item);
  });
}

/** The absolute overlaps of one size, ascending and without repeats (10% of 500 is 50). */
export function resolveOverlaps(overlaps: readonly OverlapSetting[], size: number): number[] {
  const values = overlaps.map((o) => (typeof o === "number" ? o : Math.round((size * o.percent) / 100)));
  return [...new Set(values)].sort((a, b) => a - b);
}

// The settings a user changes in a report (`seamlab report --sizes … --margin …`), checked before any kernel starts
// and injected only into the notebooks whose parameters cell declares them.
import { SeamlabError } from "../core/errors";
import { validateSplitterConfig } from "../splitters/registry";
import { checkMargin } from "../stats/non-inferiority";
import { checkContextBudget, parseContextBudget } from "../retrieval/context-budget";
import { flagOptions, intFlag, intListFlag, LIMITS, numberFlag, refuseTogether, type FlagValues } from "./flags";

/** Notebook 03's size comparison without --sizes (its `sizes` parameter; a test checks they agree). */
export const NOTEBOOK_SIZES = [500, 1000, 2000];

export const reportSettingFlags = {
  ...flagOptions(["splitter", "size", "sizes", "overlaps", "k", "margin"]),
  ...flagOptions(["heading-levels", "context-budget"]),
};

export const reportSettingsHelp = `  --splitter NAME   the splitter the overlap pages measure (notebooks 03, 04; default langchain in 03,
                    recursive in 04, as each page says)
  --size N          chunk size of every page (default 1000); --sizes LIST adds the size comparison at an equal
                    context budget (notebook 03)
  --overlaps LIST   overlaps the sweeps run (default: each notebook's own grid), each below the smallest size
  --k N             chunks retrieved per query (default 5)
  --margin POINTS   the verdict's margin in points of hit rate (default 1)
  --heading-levels LIST   heading levels that become header queries (default 2,3)
  --context-budget N      context per query the size comparison hands the model: 5000 (chars), 5000c, 1200t
                          (default: the median size x k, as sweep --sizes)
  Each setting reaches only the notebooks whose parameters cell declares it; the index lists what was set.`;

/** The notebook parameter each flag sets (`--heading-levels` → `headingLevels`); `--margin` in points → 0.01. */
export function reportSettingsFrom(values: FlagValues): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  refuseTogether(values, "size", "sizes", "--size sets one chunk size for every page; --sizes lists several.");
  const sizeBounds = { min: 1, max: LIMITS.size, unit: "chars" };
  let sizes: number[] | undefined;
  if (values.size !== undefined) {
    settings.size = intFlag(values, "size", undefined, sizeBounds);
    sizes = [settings.size as number];
  }
  if (values.sizes !== undefined) {
    settings.sizes = sizes = intListFlag(values, "sizes", undefined, sizeBounds);
    settings.size = sizes[0]; // the pages that measure one size take the first
  }
  if (values.overlaps !== undefined) {
    const overlaps = intListFlag(values, "overlaps", undefined, { min: 0, max: LIMITS.size, unit: "chars" });
    const smallest = Math.min(...(sizes ?? [1000]));
    const tooLarge = overlaps.filter((overlap) => overlap >= smallest);
    if (tooLarge.length > 0)
      throw new SeamlabError(
        `--overlaps ${tooLarge.join(",")}: an overlap must be below the chunk size (${smallest}${
          sizes ? "" : ", the notebooks' default"
        }); lower it or raise --size.`,
      );
    settings.overlaps = [...overlaps].sort((a, b) => a - b);
  }
  if (values.splitter !== undefined) {
    const splitter = String(values.splitter).trim();
    validateSplitterConfig({ splitter, size: sizes?.[0] ?? 1000, overlap: 0 });
    settings.splitter = splitter;
  }
  if (values.k !== undefined) settings.k = intFlag(values, "k", undefined, { min: 1, max: LIMITS.k, unit: "chunks" });
  const marginBounds = { min: 0, max: 100, exclusiveMin: true, unit: "points" };
  if (values.margin !== undefined) settings.margin = checkMargin(numberFlag(values, "margin", 1, marginBounds) / 100);
  if (values["heading-levels"] !== undefined)
    settings.headingLevels = intListFlag(values, "heading-levels", undefined, { min: 1, max: 6 }).sort((a, b) => a - b);
  if (values["context-budget"] !== undefined) {
    const text = String(values["context-budget"]).trim();
    const budget = parseContextBudget(text, "chars");
    if (budget === null)
      throw new SeamlabError(
        `--context-budget ${text}: the report's size comparison is always made at an equal budget; give a number ` +
          `(5000, 5000c, 1200t) or leave the flag out for the default (the median size x k).`,
      );
    checkContextBudget(budget, sizes ?? NOTEBOOK_SIZES, "chars");
    settings.contextBudget = text;
  }
  return settings;
}

/** Refuses a setting no notebook of this run declares (`--margin` with `--only 01`): it would silently do nothing. */
export function checkSettingsReachNotebooks(
  settings: Record<string, unknown>,
  declared: ReadonlyMap<string, readonly string[]>,
): void {
  for (const name of Object.keys(settings)) {
    if (name === "size" && settings.sizes !== undefined) continue;
    if (![...declared.values()].some((names) => names.includes(name))) {
      const flag = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`); // headingLevels: --heading-levels
      throw new SeamlabError(
        `--${flag}: no notebook in this run takes it (run: ${[...declared.keys()].join(", ") || "none"}); ` +
          `drop the flag or widen --only.`,
      );
    }
  }
}

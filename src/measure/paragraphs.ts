import type { Doc } from "../core/types";
import { paragraphRegions } from "../text/paragraphs";
import { percent } from "../stats/proportion";
import { distributionOf } from "../stats/quantiles";

/** Paragraph lengths against the overlap budget: why recursive splitters carry nothing over. */
export function measureParagraphBudget(
  docs: readonly Doc[],
  budget: number,
  lengthOf: (text: string) => number = (text) => text.length,
) {
  const lengths = docs.flatMap((doc) => paragraphLengths(doc, lengthOf));
  return paragraphBudgetOf(lengths, budget);
}

export function paragraphLengths(doc: Doc, lengthOf: (text: string) => number = (text) => text.length): number[] {
  return paragraphRegions(doc.text).map((region) => lengthOf(doc.text.slice(region.start, region.end)));
}

export function paragraphBudgetOf(lengths: readonly number[], budget: number) {
  const over = lengths.filter((length) => length > budget).length;
  return {
    paragraphs: lengths.length,
    lengths: distributionOf(lengths),
    budget,
    /** when one of these ends a chunk, the merge loop pops it and keeps nothing */
    overBudget: over,
    overBudgetPct: percent(over, lengths.length),
  };
}

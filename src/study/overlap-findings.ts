// The sentences notebook 01 writes under its tables and charts.
import type { ConfigMeasurement } from "../measure/split-and-measure";
import { pct } from "./format";
import { thousands } from "../stats/format";
import type { ReproRow } from "./repro";
import { seamSummaryRows } from "./seams";

/** What the repro shows: the most text any chunk shares with its predecessor, against the configured overlap. */
export function reproFinding(repro: readonly ReproRow[], paragraphLength: number, overlap: number): string {
  const shared = repro.filter((r) => r.sharedWithPrevious !== null).map((r) => r.sharedWithPrevious as number);
  const chunks = repro.filter((r) => r.splitter === "langchain").length;
  const why =
    paragraphLength > overlap
      ? `Each paragraph (${paragraphLength} chars) is longer than the budget, so none is carried over.`
      : `The paragraphs fit the budget, so whole paragraphs are carried over.`;
  return (
    `Both splitters return ${chunks} chunks, and the most text any chunk shares with its predecessor is ` +
    `**${Math.max(0, ...shared)} characters** — against a configured overlap of ${overlap}. ` +
    why
  );
}

/** The first splitter's zero-overlap share with its CI, and its mean and median real overlap. */
export function zeroOverlapFinding(measured: readonly ConfigMeasurement[], overlap: number): string {
  const first = measured[0].summary;
  const zeroCI = seamSummaryRows(measured)[0];
  return (
    `With \`${measured[0].config.splitter}\`, **${first.zeroOverlapPct.toFixed(1)}% ` +
    `of ${thousands(first.seams)} seams share no text at all** ` +
    `(95% CI ${(zeroCI["95% CI low (%)"] as number).toFixed(1)}–${(zeroCI["95% CI high (%)"] as number).toFixed(1)}%). ` +
    `The mean overlap is ${thousands(first.meanOverlap)} characters and the median ${thousands(first.medianOverlap)}, ` +
    `${pct(first.realisedOverlapRatio ?? 0)} of the configured ${overlap}.`
  );
}

/** How many of the first splitter's zero-overlap seams open the next chunk with a backward-pointing word. */
export function openerFinding(measured: readonly ConfigMeasurement[]): string {
  const o = measured[0].openers;
  const share = pct(o.zeroOverlapSeams === 0 ? 0 : o.backwardOpeners / o.zeroOverlapSeams);
  return (
    `With \`${measured[0].config.splitter}\`, ${thousands(o.backwardOpeners)} chunks (${share} of its zero-overlap seams) ` +
    "open with a backward-pointing word."
  );
}

/** The share of paragraphs longer than the overlap budget (whole pieces only are carried over). */
export function paragraphBudgetFinding(measured: readonly ConfigMeasurement[], overlap: number): string {
  const budget = measured[0].paragraphs;
  return (
    `**${thousands(budget.overBudgetPct, 1)}% of ${thousands(budget.paragraphs)} ` +
    `paragraphs are longer than ${overlap} characters** ` +
    `(median ${thousands(budget.lengths.median)} chars): whenever one of them ends a chunk, nothing is carried into the next.`
  );
}

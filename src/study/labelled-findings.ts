// The sentences notebook 05 writes under its tables and charts.
import type { PairedComparison } from "../stats/paired";
import { pText, thousands } from "../stats/format";
import { pairedShown, pct, signedInterval, signedPointsText } from "./format";
import { configLabel, type ConfigEvaluation, type LabelledInputs } from "./labelled";

/** Where the questions came from: the user's file, or a self-supervised proxy built from the headings or ICT. */
export function labelledSetFinding(set: LabelledInputs): string {
  if (!set.builtFromHeadings) {
    return (
      `Labelled file \`${set.file}\`: ${thousands(set.queries.length)} questions placed in ${set.description}; ` +
      `${thousands(set.skipped)} rows skipped, ${thousands(set.ambiguous)} ambiguous.`
    );
  }
  return (
    `**No labelled file was given, so one was built from the corpus** (${set.description}): ` +
    `${set.howBuilt}, written as answer-span JSONL to a temp folder (removed after reading) and read back through the ` +
    "same loader a user's CSV/JSONL goes through. " +
    "This is a self-supervised proxy, not human labels; set the `queries` parameter " +
    "(or `seamlab report --queries FILE`) to use real ones. " +
    `${thousands(set.queries.length)} questions; ${thousands(set.ambiguous)} answer texts occur more than once ` +
    "(the first occurrence is the gold span)."
  );
}

/** The config with the highest recall@k, and how little of its top-k is the answer (span IoU). */
export function bestRecallFinding(evaluations: readonly ConfigEvaluation[], k: number): string {
  const best = evaluations.reduce((a, b) => (b.summary.recallAtK > a.summary.recallAtK ? b : a));
  const s = best.summary;
  return (
    `The highest recall@${k} is **${pct(s.recallAtK)}** with \`${configLabel(best.config)}\` ` +
    `(95% CI ${pct(s.recallAtKCI.low)}–${pct(s.recallAtKCI.high)}); its span IoU is ${pct(s.iou)} — ` +
    `most of what a top-${k} hands the model is not the answer.`
  );
}

/** Wins, losses and ties of A against B, the hit-rate difference with its CI, and McNemar's verdict. */
export function pairedFinding(a: ConfigEvaluation, b: ConfigEvaluation, paired: PairedComparison): string {
  const verdict =
    pairedShown(paired) !== null
      ? "The difference is unlikely to be chance."
      : "The data cannot tell these configs apart.";
  return (
    `\`${configLabel(a.config)}\` against \`${configLabel(b.config)}\`: ` +
    `**${paired.wins} wins, ${paired.losses} losses, ${paired.ties} ties**; ` +
    `hit-rate difference ${signedPointsText(paired.diff)} points ` +
    `(95% CI ${signedInterval(paired.diffCI.low, paired.diffCI.high, " to ")}), McNemar ${pText(paired.mcnemarP)}. ` +
    verdict
  );
}

/** BM25, dense and hybrid on one config (in that order), and whether hybrid beats BM25 query by query. */
export function retrieverFinding(
  byRetriever: readonly ConfigEvaluation[],
  vsBm25: PairedComparison,
  k: number,
  embedder: string,
): string {
  const [sb, sd, sh] = byRetriever.map((e) => e.summary);
  const verdict =
    pairedShown(vsBm25) !== null
      ? vsBm25.diff > 0
        ? "Fusing in the dense ranking helps here."
        : "Fusing in the dense ranking hurts here."
      : "The data cannot tell hybrid from BM25 here: keep the simpler retriever.";
  return (
    `On \`${configLabel(byRetriever[0].config)}\`, recall@${k} is **${pct(sb.recallAtK)}** with BM25, ` +
    `**${pct(sd.recallAtK)}** dense and **${pct(sh.recallAtK)}** hybrid ` +
    `(span IoU ${pct(sb.iou)}, ${pct(sd.iou)} and ${pct(sh.iou)}; embedder ${embedder}). ` +
    `Hybrid against BM25: **${vsBm25.wins} wins, ${vsBm25.losses} losses, ${vsBm25.ties} ties**, ` +
    `difference ${signedPointsText(vsBm25.diff)} points ` +
    `(95% CI ${signedInterval(vsBm25.diffCI.low, vsBm25.diffCI.high, " to ")}), McNemar ${pText(vsBm25.mcnemarP)}. ` +
    verdict
  );
}

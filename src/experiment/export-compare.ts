// `seamlab check`: the recommendation *moved* when the chosen config or the verdict's state changed (what a team
// published); anything else that changed is information (docs are expected to change).
import { canonicalJson } from "../core/canonical-json";
import { percentNumber } from "../stats/format";
import { retrievalText, type ChosenExport } from "./export";

const short = (hash: string) => hash.slice(0, 12);

/** "langchain 1000/100 chars, top 5 by bm25". */
export function chosenConfigText(chosen: ChosenExport["chosen"]): string {
  const s = chosen.splitter;
  const encoding = s.unit === "tokens" && s.encoding ? ` ${s.encoding}` : "";
  return `${s.splitter} ${s.size}/${s.overlap} ${s.unit ?? "chars"}${encoding}, ${retrievalText(chosen.retrieval)}`;
}

/** Compares an export with the export of its re-run. */
export function compareExports(before: ChosenExport, after: ChosenExport) {
  const moves: string[] = []; // one line each ("chosen: overlap 100 → overlap 200")
  const notes: string[] = [];
  const configOf = (e: ChosenExport) => canonicalJson({ splitter: e.chosen.splitter, retrieval: e.chosen.retrieval });
  if (configOf(before) !== configOf(after))
    moves.push(`chosen config: ${chosenConfigText(before.chosen)} → ${chosenConfigText(after.chosen)}`);
  if (before.verdict.state !== after.verdict.state)
    moves.push(`verdict: ${before.verdict.state} → ${after.verdict.state}`);
  if (moves.length > 0) moves.push(`was: ${before.verdict.headline}`, `now: ${after.verdict.headline}`);
  if (before.corpus.hash !== after.corpus.hash) {
    notes.push(
      `corpus changed since export (hash ${short(before.corpus.hash)} → ${short(after.corpus.hash)}; ` +
        `${before.corpus.documents} → ${after.corpus.documents} documents, ${before.corpus.chars} → ` +
        `${after.corpus.chars} characters)`,
    );
  }
  if (before.queries.hash !== after.queries.hash) {
    notes.push(
      `queries changed since export (${before.queries.label} → ${after.queries.label}; hash ` +
        `${short(before.queries.hash)} → ${short(after.queries.hash)})`,
    );
  }
  if (before.seamlab.version !== after.seamlab.version || before.seamlab.commit !== after.seamlab.commit) {
    const at = (e: ChosenExport) => `${e.seamlab.version}${e.seamlab.commit ? ` at ${e.seamlab.commit}` : ""}`;
    notes.push(`seamlab changed since export (${at(before)} → ${at(after)})`);
  }
  if (moves.length === 0 && before.chosen.hitRate !== after.chosen.hitRate) {
    notes.push(
      `hit rate of ${before.chosen.name}: ${percentNumber(before.chosen.hitRate)}% → ` +
        `${percentNumber(after.chosen.hitRate)}% (${before.chosen.queries} → ${after.chosen.queries} queries)`,
    );
  }
  return { moved: moves.length > 0, moves, notes };
}

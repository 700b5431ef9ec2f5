import type { Chunk, Doc, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { evaluateQueries, type EvaluationOptions, type QueryOutcome } from "../retrieval/evaluate";
import { evaluateWithinBudget } from "../retrieval/context-budget";
import { evaluateWithPieces } from "../retrieval/expand";
import { neighbourWindows, parentSpans, sectionSpans, type ParentSetting } from "../retrieval/expand";
import type { Span } from "../retrieval/metrics";
import type { Retriever } from "../retrieval/types";
import { splitCorpus } from "../splitters/registry";
import type { ExperimentConfig } from "./grid";

/**
 * Every document's `#`/`##` sections, or the same splitter's chunks at size N without overlap. Header queries take
 * the headings out (and their gold span is the section, so a section parent would be the answer key): refused.
 */
function corpusParents(docs: readonly Doc[], parents: ParentSetting, config: ExperimentConfig): Span[] {
  if (parents === "section") {
    const spans = docs.flatMap(sectionSpans);
    if (spans.length === docs.length)
      throw new SeamlabError(
        "--parents section: no document of the split text has a # or ## heading, so every section would be a whole " +
          "document. Header queries remove the headings (and their gold span is the section itself): use " +
          "--parents N, or --queries ict or a labelled file with --parents section.",
      );
    return spans;
  }
  const blocks = splitCorpus(docs as Doc[], { ...config.splitter, size: parents, overlap: 0 });
  return blocks.map(({ doc, start, end }) => ({ doc, start, end }));
}

/**
 * Per-query outcomes of one config: the top k, the top chunks that fit its context budget, or those whose neighbour
 * windows or parents fit it. `tokensOf` counts a chunk's tokens, `countTokens` a text's.
 */
export async function contextOutcomes(
  chunks: readonly Chunk[],
  docs: readonly Doc[],
  queries: readonly Query[],
  retriever: Retriever,
  config: ExperimentConfig,
  options: EvaluationOptions & { tokensOf: (index: number) => number; countTokens: (text: string) => number },
): Promise<QueryOutcome[]> {
  const setting = config.retrieval;
  const budget = setting.contextBudget;
  const expand = setting.expand ?? 0;
  if (budget === undefined) {
    if (expand > 0 || setting.parents !== undefined)
      throw new SeamlabError("--expand and --parents compare at an equal prompt: they need a --context-budget.");
    return evaluateQueries(chunks, queries, retriever, options);
  }
  if ((setting.reranker ?? "none") !== "none")
    throw new SeamlabError(
      `--context-budget with --rerank ${setting.reranker}: a budget sets how many chunks reach the prompt, so it ` +
        `does not combine with a reranker's cut yet; drop one of them.`,
    );
  if (expand > 0 || setting.parents !== undefined) {
    const pieces =
      setting.parents !== undefined
        ? parentSpans(chunks, corpusParents(docs, setting.parents, config))
        : neighbourWindows(chunks, expand);
    return evaluateWithPieces(chunks, queries, retriever, {
      ...options,
      budget,
      docs,
      pieces,
      once: setting.parents !== undefined,
      chunksPerPiece: setting.parents !== undefined ? 1 : 2 * expand + 1,
    });
  }
  const lengthOf = budget.unit === "tokens" ? options.tokensOf : (index: number) => chunks[index].text.length;
  return evaluateWithinBudget(chunks, queries, retriever, { ...options, budget, lengthOf });
}

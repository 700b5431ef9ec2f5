// Queries for type-aware sweeps, each with the type of its gold span.
import { SeamlabError } from "../core/errors";
import { totalChars, type Doc, type Query } from "../core/types";
import { loadLabelledSet } from "../corpus/labelled";
import { loadCorpus } from "../corpus/load";
import { classifyDoc, typeAt, type TypedDoc } from "../corpus/doc-types";
import type { TypeOverride } from "../corpus/type-overrides";
import type { DocType } from "../corpus/types";
import { buildHeaderQueries, headingMarks, type HeaderQueryOptions } from "../retrieval/header-queries";
import { buildIctQueries } from "../retrieval/ict-queries";
import { parseQuerySample, sampleQueries } from "../retrieval/query-sample";
import { findHeadings } from "../text/headings";
import { thousands } from "../stats/format";
import { describeCounts, loadOrSample } from "./inputs";

/** A heading line's words blanked (offsets unchanged), keeping its `#`s and a final `?` (the FAQ rule reads it). */
export function blankHeadingLine(line: string): string {
  const newline = line.endsWith("\n") ? "\n" : "";
  const body = newline ? line.slice(0, -1) : line;
  const m = /^( {0,3}#{1,6})(.*)$/.exec(body);
  if (!m) return line;
  const rest = m[2];
  const blanked = " ".repeat(rest.length);
  const at = rest.trimEnd().length - 1;
  const question = at >= 0 && rest[at] === "?";
  return m[1] + (question ? blanked.slice(0, at) + "?" + blanked.slice(at + 1) : blanked) + newline;
}

/** Header queries over documents with headings blanked, not removed: the splitter and classifier read sections. */
export function typedHeaderQueries(
  docs: readonly Doc[],
  options: HeaderQueryOptions & { overrides?: readonly TypeOverride[] } = {},
) {
  const set = buildHeaderQueries(docs, options);
  const blankedDocs: Doc[] = [];
  const toOriginal = new Map<string, (offset: number) => number>();
  for (const doc of docs) {
    const headings = findHeadings(doc.text);
    let text = "";
    let at = 0;
    // buildHeaderQueries' gold offsets are in the text without heading lines: map them back to the original.
    const newStarts: number[] = [];
    const lengths: number[] = [];
    let removed = 0;
    for (const h of headings) {
      text += doc.text.slice(at, h.lineStart) + blankHeadingLine(doc.text.slice(h.lineStart, h.lineNext));
      at = h.lineNext;
      newStarts.push(h.lineStart - removed);
      lengths.push(h.lineNext - h.lineStart);
      removed += h.lineNext - h.lineStart;
    }
    blankedDocs.push({ ...doc, text: text + doc.text.slice(at) });
    toOriginal.set(doc.id, (offset) => {
      let shifted = offset;
      for (let i = 0; i < newStarts.length && newStarts[i] <= offset; i++) shifted += lengths[i];
      return shifted;
    });
  }
  const queries: Query[] = set.queries.map((q) => ({
    ...q,
    gold: q.gold.map((g) => {
      const map = toOriginal.get(g.doc)!;
      return { doc: g.doc, start: map(g.start), end: map(g.end - 1) + 1 };
    }),
  }));
  const typed = blankedDocs.map((d) => classifyDoc(d, options.overrides ?? []));
  const typedById = new Map(typed.map((t) => [t.doc, t]));
  const types = queries.map((q) => typeAt(typedById.get(q.gold[0].doc)!, q.gold[0].start));
  return { docs: blankedDocs, queries, types, typed };
}

/** The type of each query's first gold span in already-split-ready documents (for labelled or ICT queries). */
export function queryTypes(
  docs: readonly Doc[],
  queries: readonly Query[],
  overrides: readonly TypeOverride[] = [],
  typed: TypedDoc[] = docs.map((d) => classifyDoc(d, overrides)),
): DocType[] {
  const byId = new Map(typed.map((t) => [t.doc, t]));
  return queries.map((q) => {
    const t = q.gold[0] ? byId.get(q.gold[0].doc) : undefined;
    return t ? typeAt(t, q.gold[0].start) : "unknown";
  });
}

/** The corpus and its types; `sweepDocs`: the documents as the sweep indexes them, `queries` and their `types`. */
export type TypedInputs = ReturnType<typeof typedInputsOf>;

/** The corpus, its types, and queries (`headers`, `ict`, `headers+ict` or a labelled file) typed by gold section. */
export function loadTypedInputs(
  corpus: string,
  queries: string = "headers",
  overrides: readonly TypeOverride[] = [],
  querySample?: string | number,
  headingLevels?: readonly number[],
): TypedInputs {
  const request = parseQuerySample(querySample, "the querySample parameter");
  const all = typedInputsOf(corpus, queries, overrides, headingLevels);
  const sample = sampleQueries(all.queries, request);
  if (!sample.sampled) return all;
  return {
    ...all,
    queries: sample.queries,
    types: sample.indexes.map((i) => all.types[i]),
    querySource: `${all.querySource}; of these, ${sample.description} run`,
  };
}

/** Notebook 07's inputs, whole or a typed document sample, no queries (`loadOrSample`: the type sweep left out). */
export function loadTypedOrSample(
  corpus: string,
  queries: string = "headers",
  overrides: readonly TypeOverride[] = [],
  querySample?: string | number,
  documentChars?: string | number,
  headingLevels?: readonly number[],
): TypedInputs {
  return loadOrSample(
    corpus,
    documentChars,
    () => loadTypedInputs(corpus, queries, overrides, querySample, headingLevels),
    (docs, description) => ({
      docs,
      typed: docs.map((d) => classifyDoc(d, overrides)),
      sweepDocs: [],
      queries: [],
      types: [],
      description,
      querySource: "none: the type sweep indexes the whole corpus, and only a document sample was read",
    }),
  );
}

function typedInputsOf(
  corpus: string,
  queries: string,
  overrides: readonly TypeOverride[],
  headingLevels?: readonly number[],
) {
  const loaded = loadCorpus(corpus);
  const docs = loaded.docs;
  const typed = docs.map((d) => classifyDoc(d, overrides));
  const description = describeCounts(loaded.name ?? corpus, docs.length, totalChars(docs));
  const headerSentence = (n: number) =>
    `${thousands(n)} header queries (each ${headingMarks(headingLevels)} heading is a question, the first sentence ` +
    "under it the answer; the heading's words are blanked in the indexed text, its `#`s kept so sections survive)";
  const ictSentence = (n: number) =>
    `${thousands(n)} inverse-cloze (ICT) queries (a prose sentence is the question, the sentences around it the answer; ` +
    "the sentence is removed from the indexed text)";
  const of = (sweepDocs: Doc[], queries: Query[], types: DocType[], querySource: string) => {
    return { docs, typed, sweepDocs, queries, types, description, querySource };
  };
  if (queries === "ict" || queries === "headers+ict") {
    const ict = buildIctQueries(docs, { allowFewer: true, corpusName: corpus });
    if (queries === "ict") {
      const types = queryTypes(ict.docs, ict.queries, overrides);
      return of(ict.docs, ict.queries, types, ictSentence(ict.queries.length));
    }
    const headers = typedHeaderQueries(ict.docs, { overrides, headingLevels });
    const all = [...headers.queries, ...ict.queries];
    // headers.typed classified these very documents (with these overrides): not classified a third time
    const types = queryTypes(headers.docs, all, overrides, headers.typed);
    const source = `${headerSentence(headers.queries.length)}, and ${ictSentence(ict.queries.length)}`;
    return of(headers.docs, all, types, source);
  }
  if (queries !== "headers") {
    const set = loadLabelledSet(queries, docs, { skipMalformed: true });
    if (set.queries.length === 0)
      throw new SeamlabError(`${queries}: no question could be placed in corpus "${corpus}".`);
    const types = queryTypes(set.docs, set.queries, overrides);
    return of(set.docs, set.queries, types, `${thousands(set.queries.length)} labelled questions from \`${queries}\``);
  }
  const set = typedHeaderQueries(docs, { overrides, headingLevels });
  if (set.queries.length === 0) {
    throw new SeamlabError(
      `corpus "${corpus}" has no markdown headings with prose under them, so no header queries: set the queries ` +
        `parameter to "ict" or a labelled file.`,
    );
  }
  return of(set.docs, set.queries, set.types, headerSentence(set.queries.length));
}

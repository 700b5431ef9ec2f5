import { SeamlabError } from "../core/errors";
import { thousands } from "../stats/format";
import type { Doc, Query } from "../core/types";
import { loadLabelledSet } from "../corpus/labelled";
import type { LabelledReport } from "../corpus/types";
import { buildHeaderQueries, headingMarks, type HeaderQueryOptions, type HeaderQuerySet } from "./header-queries";
import { buildIctQueries, type IctOptions, type IctQuerySet } from "./ict-queries";

// `--queries headers|ict|FILE` as the documents to split and the queries to run, with a label for every chart and
// table, and the provenance `--json` prints.
export interface QuerySourceOptions {
  headers?: HeaderQueryOptions;
  ict?: IctOptions;
  skipMalformed?: boolean; // labelled sets: skip malformed rows (counted)
  corpusName?: string;
}

export interface QuerySet {
  kind: "headers" | "ict" | "labelled";
  docs: Doc[]; // to split: heading lines removed (headers), query sentences removed (ict), or as loaded
  queries: Query[];
  label: string; // for chart subtitles and table captions: "200 ICT queries (sentence removed)"
  description: string;
  provenance:
    | ({ kind: "headers" } & Pick<HeaderQuerySet, "levels" | "headings" | "skipped">)
    | ({ kind: "ict" } & Pick<IctQuerySet, "settings" | "sentences" | "candidates" | "skipped">)
    | { kind: "labelled"; report: LabelledReport };
}

export const isLabelledSpec = (spec: string) => spec !== "headers" && spec !== "ict";

/** Is `spec` a SQuAD file, which brings its own documents (no corpus needed)? */
export const isSquadSpec = (spec: string) => isLabelledSpec(spec) && spec.toLowerCase().endsWith(".json");

/** The queries `spec` names over `given` docs (SQuAD files bring their own); the description names the drops. */
export function buildQuerySet(spec: string, given: Iterable<Doc>, options: QuerySourceOptions = {}): QuerySet {
  const set = querySetOf(spec, given, options);
  return { ...set, description: `${set.description}; ${queryDropsText(set.provenance)}` };
}

function querySetOf(spec: string, given: Iterable<Doc>, options: QuerySourceOptions): QuerySet {
  const corpus = options.corpusName ? `corpus "${options.corpusName}"` : "the corpus";
  if (spec === "headers") {
    // header queries take a stream of documents; the other sources need them all
    const set = buildHeaderQueries(given, options.headers);
    if (set.queries.length === 0)
      throw new SeamlabError(
        `${corpus} has no markdown headings with prose under them at levels ${headingMarks(set.levels)} ` +
          `(${set.headings} usable headings), so no header queries can be built: try more --heading-levels ` +
          "(e.g. 2,3,4) or drop --question-headers-only, use --queries ict (sentences as queries, any prose), or " +
          "give a labelled file (--queries FILE, or the notebook's queries parameter).",
      );
    const levels = set.levels.map((level) => `\`${"#".repeat(level)}\``).join("/");
    return {
      kind: "headers",
      docs: set.docs,
      queries: set.queries.map((q) => ({ ...q, doc: q.gold[0]?.doc })),
      label: `${thousands(set.queries.length)} header queries (${headingMarks(set.levels)})`,
      description:
        `${thousands(set.queries.length)} header queries: each ${levels} heading is a question and the first sentence under it ` +
        "the answer; heading lines are removed from the text before splitting, so a query never matches its own heading",
      provenance: { kind: "headers", levels: set.levels, headings: set.headings, skipped: set.skipped },
    };
  }
  const docs: readonly Doc[] = Array.isArray(given) ? given : [...given];
  if (spec === "ict") {
    const set = buildIctQueries(docs, { corpusName: options.corpusName, ...options.ict });
    const kept = set.settings.keepSentence;
    return {
      kind: "ict",
      docs: set.docs,
      queries: set.queries,
      label: `${thousands(set.queries.length)} ICT queries (sentence ${kept ? "kept" : "removed"})`,
      description:
        `${thousands(set.queries.length)} inverse-cloze (ICT) queries: each is a sentence sampled from the corpus (seed ` +
        `${set.settings.seed}, stratified over documents); a query hits when one retrieved chunk holds its whole ` +
        `context (${set.settings.contextSentences} sentence${set.settings.contextSentences === 1 ? "" : "s"} before ` +
        `and after); ` +
        (kept
          ? "the sentence stays in the indexed text"
          : "the sentence is removed from the indexed text, the same for every config"),
      provenance: {
        kind: "ict",
        settings: set.settings,
        sentences: set.sentences,
        candidates: set.candidates,
        skipped: set.skipped,
      },
    };
  }
  const set = loadLabelledSet(spec, isSquadSpec(spec) ? [] : docs, { skipMalformed: options.skipMalformed });
  if (set.queries.length === 0) {
    const { notLocated, skippedMalformed } = set.report;
    throw new SeamlabError(
      `no question in ${spec} could be placed in the corpus (not located: ${JSON.stringify(notLocated)}` +
        `${skippedMalformed > 0 ? `; ${skippedMalformed} malformed rows skipped` : ""}): check --corpus and --queries.`,
    );
  }
  const skipped = set.report.rows - set.report.queries;
  const name = spec.split(/[\\/]/).pop() ?? spec;
  return {
    kind: "labelled",
    docs: set.docs,
    queries: set.queries.map((q) => ({ ...q, doc: q.doc ?? q.gold[0]?.doc })),
    label: `${thousands(set.queries.length)} labelled queries (${name})`,
    description:
      `${thousands(set.queries.length)} labelled questions from \`${spec}\` ` +
      `(${set.report.shape} shape${skipped > 0 ? `; ${skipped} rows skipped` : ""})`,
    provenance: { kind: "labelled", report: set.report },
  };
}

const counted = (n: number, noun: string) => `${thousands(n)} ${noun}${n === 1 ? "" : "s"}`;

/** "2 with no sentence under the heading" and the like, in a fixed order, leaving out zeros. */
function countedReasons(counts: readonly [number, string][]): string {
  return counts
    .filter(([n]) => n > 0)
    .map(([n, reason]) => `${thousands(n)} ${reason}`)
    .join(", ");
}

/** What a query source left out, in words: "12 of 40 headings dropped: 10 with no sentence under the heading, ...". */
export function queryDropsText(provenance: QuerySet["provenance"]): string {
  if (provenance.kind === "headers") {
    const s = provenance.skipped;
    const total = s.notQuestion + s.emptyText + s.noProse + s.duplicate;
    if (total === 0) return `none of ${counted(provenance.headings, "heading")} dropped`;
    return (
      `${thousands(total)} of ${thousands(provenance.headings)} headings dropped: ` +
      countedReasons([
        [s.noProse, "with no sentence under the heading"],
        [s.duplicate, "whose heading text repeats"],
        [s.emptyText, "with no words in the heading"],
        [s.notQuestion, "not questions (--question-headers-only)"],
      ])
    );
  }
  if (provenance.kind === "ict") {
    const s = provenance.skipped;
    const reasons = countedReasons([
      [s.noNeighbour, "without a neighbour sentence"],
      [s.tooShort, "too short"],
      [s.tooLong, "too long"],
      [s.notProse, "not prose"],
      [s.boilerplate, "repeated (boilerplate)"],
    ]);
    return (
      `sampled from ${thousands(provenance.candidates)} usable of ${thousands(provenance.sentences)} sentences` +
      (reasons ? ` (${reasons})` : "")
    );
  }
  const r = provenance.report;
  const dropped = r.rows - r.queries;
  if (dropped === 0) return `none of ${counted(r.rows, "row")} dropped`;
  const notLocated = Object.values(r.notLocated).reduce((sum, n) => sum + n, 0);
  return (
    `${thousands(dropped)} of ${thousands(r.rows)} rows dropped: ` +
    (countedReasons([
      [r.skippedMalformed, "malformed"],
      [notLocated, "answer not found in the corpus"],
    ]) || "not placed in the corpus")
  );
}

// `npm run validate:ict`: do ICT (and header) queries rank splitter configs the way labelled questions do?
// On each labelled corpus, the same overlap sweep (recursive and window splitters, sizes 500 and 1000 chars,
// overlaps 0-400, BM25, hit rate@5) runs with the labelled questions, with nine ICT variants (ICT_VARIANTS) and
// with header queries where the corpus has `##` headings; each proxy is compared with the truth
// (experiment/proxies): Kendall tau-b over the configs' hit rates, each curve's pick (paired rule) the same, one grid
// step off, inside the labelled verdict's set, and the paired status agreement.
//
// Data: SEAMLAB_DATA_DIR (chroma-chunking-eval: five corpora + questions_df.csv; covid-qa); always the generated
// facts corpus (fastify-docs from npm with synthetic facts: scripts/facts-corpus.ts; --no-facts leaves it out), the
// one with headings, so header queries are checked too; optionally `--squad FILE`: any SQuAD/XQuAD file, its
// paragraphs joined per article (src/corpus/squad-articles.ts). --only a,b keeps corpora whose name holds a or b;
// --variants a,b keeps those ICT variants.
// Writes data/validation/ict-vs-labelled.json (ict, ict-kept, headers: the notebook section reads it) and
// data/validation/ict-variants.json (every variant), and prints both markdown tables.
import { mkdirSync, existsSync } from "node:fs";
import { writeFileAtomic } from "../src/core/atomic-write";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Doc } from "../src/core/types";
import { SeamlabError } from "../src/core/errors";
import { loadCorpus } from "../src/corpus/load";
import { loadLabelledSet } from "../src/corpus/labelled";
import { squadArticleSet } from "../src/corpus/squad-articles";
import { runOverlapSweep } from "../src/experiment/sweep";
import { buildQuerySet } from "../src/retrieval/query-source";
import type { Query } from "../src/core/types";
import { buildFactsCorpus } from "./facts-corpus";
import type { IctOptions } from "../src/retrieval/ict-queries";
import {
  compareWithTruth,
  validationMarkdown,
  variantRows,
  type CorpusValidation,
  type SourceSweeps,
} from "../src/study/query-validation";
import { markdownTable } from "../src/study/format";

const { values } = parseArgs({
  options: {
    squad: { type: "string" },
    out: { type: "string" },
    "ict-n": { type: "string" },
    only: { type: "string" },
    variants: { type: "string" },
    "no-facts": { type: "boolean" },
    "variants-out": { type: "string" },
  },
});
const dataDir = process.env.SEAMLAB_DATA_DIR;
if (!dataDir)
  console.log(
    "validate:ict: SEAMLAB_DATA_DIR is unset: skipping Chroma's five corpora and COVID-QA; " +
      "measuring the generated facts corpus only.",
  );
// default: what `--queries ict` takes without --ict-n (500, or every usable sentence when fewer)
const ictN = values["ict-n"] === undefined ? undefined : Number(values["ict-n"]);
const SPLITTERS = ["recursive", "window"];
const SIZES = [500, 1000];
const OVERLAPS = [0, 50, 100, 200, 300, 400];
const K = 5;
// The ICT variants studied (issue 30 §7): context width, keeping the sentence, the query as the sentence or its
// content words, a hit as the whole context or the sentence's place. "ict" is the default; "ict" and "ict-kept"
// go to the main table (ict-vs-labelled.json), every variant to ict-variants.json.
const ICT_VARIANTS: [string, IctOptions][] = [
  ["ict", {}],
  ["ict-kept", { keepSentence: true }],
  ["ict-wide", { contextSentences: 2 }],
  ["ict-words", { query: "content-words" }],
  ["ict-place", { hit: "place" }],
  ["ict-kept-place", { keepSentence: true, hit: "place" }],
  ["ict-kept-words-place", { keepSentence: true, hit: "place", query: "content-words" }],
  ["ict-words-wide", { query: "content-words", contextSentences: 2 }],
  ["ict-kept-words", { keepSentence: true, query: "content-words" }],
];
const MAIN_TABLE = new Set(["ict", "ict-kept", "headers"]);
const variants = values.variants?.split(",");

interface LabelledCorpus {
  name: string;
  kind: string;
  docs: Doc[];
  queries: Query[];
  label: string;
}

function corpora(): LabelledCorpus[] {
  const out: LabelledCorpus[] = [];
  if (dataDir) {
    const chroma = join(dataDir, "chroma-chunking-eval");
    const csv = join(chroma, "questions_df.csv");
    for (const name of ["chatlogs", "finance", "pubmed", "state_of_the_union", "wikitexts"]) {
      const docs = loadCorpus(join(chroma, "corpora", `${name}.md`)).docs;
      // the CSV covers all five corpora: rows of the others name a document not loaded here, skipped
      const set = loadLabelledSet(csv, docs, { skipMalformed: true });
      out.push({
        name: `chroma/${name}`,
        kind: "Chroma chunking evaluation",
        docs: set.docs,
        queries: set.queries,
        label: `${set.queries.length} labelled (Chroma)`,
      });
    }
    const covid = join(dataDir, "covid-qa", "200423_covidQA.json");
    if (existsSync(covid)) {
      const set = loadLabelledSet(covid, [], { skipMalformed: true });
      out.push({
        name: "covid-qa",
        kind: "SQuAD format, full papers",
        docs: set.docs,
        queries: set.queries,
        label: `${set.queries.length} labelled (COVID-QA)`,
      });
    }
  }
  if (!values["no-facts"]) {
    // generated: fastify-docs (npm, MIT) with 150 synthetic facts woven into its prose (scripts/facts-corpus.ts)
    const set = buildFactsCorpus(loadCorpus("fastify-docs").docs, { count: 150, seed: 1 });
    out.push({
      name: "facts/fastify-docs",
      kind: "generated: fastify-docs with 150 synthetic facts (seed 1)",
      docs: set.docs,
      queries: set.queries,
      label: `${set.queries.length} labelled (synthetic facts)`,
    });
  }
  if (values.squad) {
    const set = squadArticleSet(values.squad, { skipMalformed: true });
    out.push({
      name: `squad-articles/${basename(values.squad)}`,
      kind: "XQuAD-style: SQuAD paragraphs joined per article",
      docs: set.docs,
      queries: set.queries,
      label: `${set.queries.length} labelled (SQuAD)`,
    });
  }
  const only = values.only?.split(",");
  return only ? out.filter((c) => only.some((o) => c.name.includes(o))) : out;
}

async function sweep(source: string, label: string, docs: readonly Doc[], queries: readonly Query[]) {
  const results = [];
  for (const size of SIZES) {
    results.push(
      await runOverlapSweep(
        { docs, queries },
        { splitter: SPLITTERS, size, overlaps: OVERLAPS, ks: [K] },
        { workers: 0, quiet: true, metric: "hitRate" },
      ),
    );
  }
  return { source, label, queries: queries.length, results } satisfies SourceSweeps;
}

const measured: CorpusValidation[] = [];
for (const corpus of corpora()) {
  const started = performance.now();
  const truth = await sweep("labelled", corpus.label, corpus.docs, corpus.queries);
  const validation: CorpusValidation = {
    corpus: corpus.name,
    kind: corpus.kind,
    documents: corpus.docs.length,
    characters: corpus.docs.reduce((s, d) => s + d.text.length, 0),
    truth: { label: corpus.label, queries: corpus.queries.length },
    proxies: [],
    unavailable: [],
  };
  const proxies: [string, string, object][] = [
    ...ICT_VARIANTS.filter(([name]) => variants === undefined || variants.includes(name)).map(
      ([name, ict]) => [name, "ict", { ict: { n: ictN, ...ict } }] as [string, string, object],
    ),
    ["headers", "headers", {}],
  ];
  for (const [source, spec, options] of proxies) {
    let set;
    try {
      set = buildQuerySet(spec, corpus.docs, { ...options, corpusName: corpus.name });
    } catch (error) {
      if (!(error instanceof SeamlabError)) throw error;
      validation.unavailable.push({
        source,
        reason: spec === "headers" ? "no ## or ### headings" : error.message.slice(0, 120),
      });
      continue;
    }
    validation.proxies.push(compareWithTruth(truth, await sweep(source, set.label, set.docs, set.queries)));
  }
  measured.push(validation);
  for (const p of validation.proxies)
    console.error(
      `  ${p.source}: tau ${p.tau.toFixed(2)}, same or adjacent ${p.check?.nearPick}/${p.check?.curves.length}, ` +
        `inside labelled set ${p.check?.inSet}/${p.check?.curves.length}`,
    );
  console.error(`${corpus.name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // written after each corpus, so a long run that is cut off keeps what it measured
  writeResults(values.out ?? "data/validation/ict-vs-labelled.json", mainTable(measured), "main");
  writeResults(values["variants-out"] ?? "data/validation/ict-variants.json", measured, "variants");
}

function mainTable(list: readonly CorpusValidation[]): CorpusValidation[] {
  return list.map((c) => ({ ...c, proxies: c.proxies.filter((p) => MAIN_TABLE.has(p.source)) }));
}

function writeResults(file: string, corpora: readonly CorpusValidation[], which: "main" | "variants"): void {
  const out = resolve(file);
  mkdirSync(dirname(out), { recursive: true });
  writeFileAtomic(
    out,
    JSON.stringify(
      {
        about:
          (which === "main"
            ? "ICT and header queries against labelled questions"
            : "ICT variants and header queries against labelled questions (issue 30 §7)") +
          ": same sweep per corpus, Kendall tau-b of config hit rates, " +
          "recommended overlap (paired rule; its pick when leaning or undecided) per curve, the labelled verdict's " +
          "set (overlaps not shown worse than the labelled best) and paired status agreement. " +
          "Produced by scripts/validate-ict.ts.",
        grid: { splitters: SPLITTERS, sizes: SIZES, overlaps: OVERLAPS, k: K, retriever: "bm25", metric: "hit rate@5" },
        ictQueries: ictN ?? "default (500, or every usable sentence when fewer)",
        ...(which === "variants" ? { variants: Object.fromEntries(ICT_VARIANTS) } : {}),
        corpora,
      },
      (_key, value) => (typeof value === "number" && Number.isNaN(value) ? null : value),
      2,
    ) + "\n",
  );
}

console.log(validationMarkdown(mainTable(measured)));
console.log("\n" + markdownTable(variantRows(measured)));

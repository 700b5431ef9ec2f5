// `npm run validate:ict`: do ICT (and header) queries rank splitter configs the way labelled questions do?
// On each labelled corpus, the same overlap sweep (recursive and window splitters, sizes 500 and 1000 chars,
// overlaps 0-400, BM25, hit rate@5) runs with the labelled questions, with ICT queries (sentence removed, and
// kept) and with header queries where the corpus has `##` headings; the proxies are compared with the truth:
// Kendall tau-b over the configs' hit rates, and whether each curve's recommended overlap (paired rule) agrees.
//
// Data: SEAMLAB_DATA_DIR (chroma-chunking-eval: five corpora + questions_df.csv; covid-qa) and, optionally,
// `--squad FILE`: any SQuAD/XQuAD file, its paragraphs joined per article (src/corpus/squad-articles.ts).
// Writes data/validation/ict-vs-labelled.json (the notebook section reads it) and prints the markdown table.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
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
import {
  compareWithTruth,
  validationMarkdown,
  type CorpusValidation,
  type SourceSweeps,
} from "../src/study/query-validation";

const { values } = parseArgs({
  options: {
    squad: { type: "string" },
    out: { type: "string" },
    "ict-n": { type: "string" },
    only: { type: "string" },
  },
});
const dataDir = process.env.SEAMLAB_DATA_DIR;
if (!dataDir && !values.squad) {
  console.log("validate:ict: SEAMLAB_DATA_DIR is unset: skipping Chroma's five corpora and COVID-QA (nothing to do).");
  process.exit(0);
}
// default: what `--queries ict` takes without --ict-n (500, or every usable sentence when fewer)
const ictN = values["ict-n"] === undefined ? undefined : Number(values["ict-n"]);
const SPLITTERS = ["recursive", "window"];
const SIZES = [500, 1000];
const OVERLAPS = [0, 50, 100, 200, 300, 400];
const K = 5;

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
    ["ict", "ict", { ict: { n: ictN } }],
    ["ict-kept", "ict", { ict: { n: ictN, keepSentence: true } }],
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
  console.error(`${corpus.name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

const out = resolve(values.out ?? "data/validation/ict-vs-labelled.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  JSON.stringify(
    {
      about:
        "ICT and header queries against labelled questions: same sweep per corpus, Kendall tau-b of config hit rates, " +
        "recommended overlap (paired rule; its safe pick when undecided) per curve. Produced by scripts/validate-ict.ts.",
      grid: { splitters: SPLITTERS, sizes: SIZES, overlaps: OVERLAPS, k: K, retriever: "bm25", metric: "hit rate@5" },
      ictQueries: ictN ?? "default (500, or every usable sentence when fewer)",
      corpora: measured,
    },
    (_key, value) => (typeof value === "number" && Number.isNaN(value) ? null : value),
    2,
  ) + "\n",
);
console.log(validationMarkdown(measured));
console.error(`wrote ${out}`);

// `npx tsx scripts/generate-facts-corpus.ts --out DIR [--corpus fastify-docs] [--count 150] [--seed 1]`:
// writes a markdown corpus with synthetic facts woven into its prose (scripts/facts-corpus.ts says what it is and its
// limits) to DIR, and its labelled questions to DIR.csv beside it (Chroma's questions_df.csv shape, exact offsets),
// so that `seamlab proxies --corpus DIR --queries DIR.csv` checks header and ICT queries against them.
// DIR is replaced only when seamlab wrote it (corpus/write-corpus); DIR.csv only with --force.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { SeamlabError } from "../src/core/errors";
import { loadCorpus } from "../src/corpus/load";
import { checkCorpusOut, checkOutsideCorpus, writeCorpusFolder } from "../src/corpus/write-corpus";
import { chromaCsv } from "../src/corpus/write-labelled";
import { writeFileAtomically } from "../src/cli/format";
import { buildFactsCorpus } from "./facts-corpus";

try {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      corpus: { type: "string", default: "fastify-docs" },
      count: { type: "string", default: "150" },
      seed: { type: "string", default: "1" },
      force: { type: "boolean" },
    },
  });
  if (!values.out) throw new SeamlabError("--out DIR is required: the folder to write the corpus to.");
  const count = Number(values.count);
  const seed = Number(values.seed);
  if (!Number.isInteger(count) || count < 1) throw new SeamlabError(`--count must be a whole number >= 1.`);
  if (!Number.isInteger(seed)) throw new SeamlabError(`--seed must be a whole number.`);
  const dir = resolve(values.out);
  const csv = `${dir}.csv`;
  const loaded = loadCorpus(values.corpus);
  checkCorpusOut(dir, "--out");
  checkOutsideCorpus(dir, loaded, "--out");
  const set = buildFactsCorpus(loaded.docs, { count, seed });
  writeCorpusFolder(dir, set.docs, {
    generatedBy: "scripts/generate-facts-corpus.ts",
    from: values.corpus,
    count,
    seed,
    synthetic: "facts about invented components, woven into the docs' prose",
  });
  writeFileAtomically(csv, chromaCsv(set.queries, set.docs), { force: Boolean(values.force), flag: "labelled file" });
  console.log(
    `wrote ${dir} (${set.docs.length} documents from ${values.corpus}, ${count} synthetic facts: ` +
      `${set.positions.first} first, ${set.positions.middle} in the middle, ${set.positions.last} last in their ` +
      `paragraph) and ${csv}`,
  );
} catch (error) {
  if (!(error instanceof SeamlabError)) throw error;
  console.error(`generate-facts-corpus: ${error.message}`);
  process.exit(2);
}

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";
import { loadCorpus } from "../../src/corpus/load";
import { buildQuerySet } from "../../src/retrieval/query-source";

const dir = mkdtempSync(join(tmpdir(), "seamlab-inputs-"));
const corpus = join(dir, "corpus");
mkdirSync(corpus);
writeFileSync(
  join(corpus, "guide.md"),
  "# Guide\n\n## How do I install it?\n\nRun the installer once.\n\n## Where are logs kept?\n\nLogs go to /var/log.\n",
);
const csv = join(dir, "set.csv");
writeFileSync(csv, 'question,answer_span\n"install?","Run the installer once."\n"bad row",""\n');
const squad = join(dir, "set.json");
writeFileSync(
  squad,
  JSON.stringify({
    data: [
      {
        paragraphs: [
          {
            context: "Paris is in France.",
            qas: [{ question: "Where is Paris?", answers: [{ text: "France", answer_start: 12 }] }],
          },
        ],
      },
    ],
  }),
);

test("header queries strip the heading lines; the corpus is read as a stream, never held twice, its size kept", () => {
  const inputs = loadCorpusAndQueries({ corpus });
  assert.equal(inputs.source.kind, "headers");
  assert.equal(inputs.queries.length, 2);
  assert.ok(!inputs.docs[0].text.includes("## How do I install it?"));
  assert.equal(inputs.corpusDocs.length, 0);
  const read = loadCorpus(corpus).docs;
  assert.ok(read[0].text.includes("## How do I install it?"));
  assert.deepEqual(inputs.corpusSize, {
    documents: read.length,
    chars: read.reduce((sum, doc) => sum + doc.text.length, 0),
  });
  // the same documents and queries as building them from the loaded corpus
  const built = buildQuerySet("headers", read);
  assert.deepEqual(inputs.docs, built.docs);
  assert.deepEqual(inputs.queries, built.queries);
});

test("a malformed labelled row stops with its line unless skipping is asked for, then it is counted", () => {
  assert.throws(
    () => loadCorpusAndQueries({ corpus, queries: csv }),
    (e: unknown) => {
      return e instanceof SeamlabError && e.message.includes(`${csv}:3`);
    },
  );
  const inputs = loadCorpusAndQueries({ corpus, queries: csv, skipMalformed: true });
  assert.equal(inputs.queries.length, 1);
  assert.ok(inputs.source.kind === "labelled" && inputs.source.report.skippedMalformed === 1);
});

test("a SQuAD file brings its documents: no corpus is read, even a missing one", () => {
  const inputs = loadCorpusAndQueries({ corpus: join(dir, "no-such-folder"), queries: squad });
  assert.equal(inputs.corpus, squad);
  assert.deepEqual(
    inputs.docs.map((d) => d.text),
    ["Paris is in France."],
  );
  assert.equal(inputs.queries.length, 1);
});

test("a CSV set without a corpus, an empty corpus, and a corpus without headings are SeamlabErrors", () => {
  assert.throws(() => loadCorpusAndQueries({ queries: csv }), /needs a corpus/);
  const empty = join(dir, "empty");
  mkdirSync(empty);
  assert.throws(() => loadCorpusAndQueries({ corpus: empty }), SeamlabError);
  const flat = join(dir, "flat");
  mkdirSync(flat);
  writeFileSync(join(flat, "a.txt"), "No headings here at all.\n");
  assert.throws(() => loadCorpusAndQueries({ corpus: flat }), /no markdown headings/);
});

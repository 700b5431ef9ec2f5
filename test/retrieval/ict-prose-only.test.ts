import { test } from "node:test";
import assert from "node:assert/strict";
import { buildIctQueries } from "../../src/retrieval/ict-queries";
import type { Doc } from "../../src/core/types";
import { SeamlabError } from "../../src/core/errors";

// Source code whose statements read like sentences to a sentence splitter: string literals with full stops.
const source = (name: string) =>
  Array.from(
    { length: 12 },
    (_, i) =>
      `Log.info("The ${name} worker flushed batch number ${i} to the remote exporter without retries.")\n` +
      `Log.warn("The ${name} worker dropped span number ${i} because the queue was already full.")\n`,
  ).join("");
const prose = (name: string) =>
  Array.from({ length: 6 }, (_, i) => `The ${name} keeper counted barrels number ${i} along the quiet harbour wall.`)
    .join(" ")
    .concat("\n");

test("ICT on a corpus of only source files stops with a message naming it, instead of using code as sentences", () => {
  const docs: Doc[] = [
    { id: "src/a.ts", text: source("alpha") },
    { id: "src/b.ts", text: source("beta") },
  ];
  assert.throws(
    () => buildIctQueries(docs, { n: 2, corpusName: "src" }),
    (error: unknown) =>
      error instanceof SeamlabError &&
      /corpus "src" has no prose for inverse-cloze queries: all 2 documents are source code \(\.ts\)/.test(
        error.message,
      ),
  );
});

test("ICT takes sentences only from prose documents when a corpus mixes prose and source code", () => {
  const docs: Doc[] = [
    { id: "guide.md", text: prose("alpha") + "\n" + prose("beta") },
    { id: "src/worker.ts", text: source("gamma") },
  ];
  const set = buildIctQueries(docs, { n: 4, seed: 2 });
  assert.equal(set.queries.length, 4);
  for (const query of set.queries) assert.equal(query.doc, "guide.md", `a query from code: ${query.text}`);
  assert.equal(set.docs[1].text, docs[1].text, "the code file is indexed as it was");
});

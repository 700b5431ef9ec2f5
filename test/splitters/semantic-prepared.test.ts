import assert from "node:assert/strict";
import { test } from "node:test";
import type { Doc } from "../../src/core/types";
import { SeamlabError } from "../../src/core/errors";
import {
  prepareSemanticSplit,
  semanticOptionsFromConfig,
  splitSemanticPrepared,
} from "../../src/splitters/semantic-prepared";

const text =
  "The cat sat. A cat purred loudly. Cats sleep a lot.\n\nBond yields rose. The bond market fell. Bonds are debt.";
const doc: Doc = { id: "d1", text };

test("configs map to options; a character overlap is refused with a pointer to overlapSentences", () => {
  const options = semanticOptionsFromConfig({
    splitter: "semantic",
    size: 400,
    overlap: 0,
    unit: "tokens",
    extra: { percentile: 5, overlapSentences: 1 },
  });
  assert.deepEqual(options.threshold, { percentile: 5 });
  assert.equal(options.maxLength, 400);
  assert.equal(options.overlapSentences, 1);
  assert.deepEqual(options.embedder, { kind: "lsa" });
  assert.throws(
    () => semanticOptionsFromConfig({ splitter: "semantic", size: 400, overlap: 50 }),
    /--overlap must be 0 \(got 50\).*--overlap-sentences/,
  );
});

test("the synchronous entry serves prepared chunks and explains itself when not prepared", async () => {
  const docs: Doc[] = [doc, { id: "d2", text: "Another cat. And a bond." }];
  const config = { splitter: "semantic", size: 0, overlap: 0, extra: { similarity: 0.2 } };
  assert.throws(
    () => splitSemanticPrepared(docs[0], config),
    (e: Error) => e instanceof SeamlabError && /prepareSemanticSplit/.test(e.message),
  );
  const all = await prepareSemanticSplit(docs, config);
  const again = [
    ...splitSemanticPrepared(docs[0], config),
    ...splitSemanticPrepared(docs[1], { ...config, extra: { similarity: 0.2 } }),
  ];
  assert.deepEqual(again, all);
});

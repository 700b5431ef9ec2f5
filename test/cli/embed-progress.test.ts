import { test } from "node:test";
import assert from "node:assert/strict";
import { withEmbedProgress } from "../../src/cli/embed";
import type { Embedder } from "../../src/embed/types";
import { emptyInputReport } from "../../src/embed/types";

test("embedding draws a bar per 2,048 texts with an ETA from the texts embedded so far", async () => {
  const calls: number[] = [];
  const inner: Embedder = {
    name: "fake",
    id: "fake",
    dimensions: 2,
    maxInputTokens: Infinity,
    inputs: emptyInputReport(),
    async embed(texts) {
      calls.push(texts.length);
      return texts.map(() => Float32Array.from([1, 0]));
    },
  };
  const written: string[] = [];
  let clock = 0;
  const stream = { isTTY: true, columns: 120, write: (text: string) => written.push(text) };
  const wrapped = withEmbedProgress(inner, 5000, { stream, now: () => (clock += 1000) });
  const vectors = await wrapped.embed(Array.from({ length: 5000 }, (_, i) => `text ${i}`));
  assert.equal(vectors.length, 5000);
  assert.deepEqual(calls, [2048, 2048, 904]);
  const lines = written.join("").split("\r").filter(Boolean);
  assert.match(lines[0], /^embed \[.*\] 2048\/5000 41% .* ETA \d+s/);
  assert.match(lines[lines.length - 1], /5000\/5000 100% .* done/);
  // not a terminal: the embedder is returned as it was
  assert.equal(withEmbedProgress(inner, 10, { stream: { isTTY: false, write: () => true } }), inner);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { seededRandom } from "../../src/core/random";
import { measureLostText } from "../../src/measure/lost";
import { span } from "./helpers";

function bruteForceLost(doc: Doc, chunks: Chunk[]): number {
  const covered = new Array(doc.text.length).fill(false);
  for (const c of chunks) for (let i = c.start; i < c.end; i++) covered[i] = true;
  let lost = 0;
  for (let i = 0; i < doc.text.length; i++) if (!covered[i] && /\S/.test(doc.text[i])) lost++;
  return lost;
}

test("lost text counts uncovered non-whitespace, including before the first and after the last chunk", () => {
  const doc: Doc = { id: "d", text: "xx aaa  bbb yy" };
  const lost = measureLostText([doc], [span(doc, 3, 6), span(doc, 8, 11)]);
  assert.equal(lost.lostChars, 4);
  assert.deepEqual(lost.byDoc, [{ doc: "d", lostChars: 4 }]);
});

test("lost text equals a brute-force coverage count on random unordered, overlapping spans", () => {
  const random = seededRandom(5);
  for (let round = 0; round < 50; round++) {
    const text = Array.from({ length: 300 }, () => (random() < 0.3 ? " " : "x")).join("");
    const doc: Doc = { id: `r${round}`, text };
    const chunks = Array.from({ length: 6 }, () => {
      const start = Math.floor(random() * 300);
      return span(doc, start, Math.min(300, start + Math.floor(random() * 80)));
    });
    assert.equal(measureLostText([doc], chunks).lostChars, bruteForceLost(doc, chunks));
  }
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { indexDrawKernel } from "../../src/core/index-draws";
import { sampleIndices, seededIndexFiller, seededRandom } from "../../src/core/random";

test("seeded random repeats the same sequence for the same seed and differs for another", () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const c = seededRandom(43);
  const seqA = Array.from({ length: 5 }, a);
  assert.deepEqual(seqA, Array.from({ length: 5 }, b));
  assert.notDeepEqual(seqA, Array.from({ length: 5 }, c));
  for (const x of seqA) assert.ok(x >= 0 && x < 1);
});

test("sampleIndices draws distinct sorted indices, the same for the same seed, all of them when asked for more", () => {
  const a = sampleIndices(1000, 50, 7);
  assert.equal(a.length, 50);
  assert.equal(new Set(a).size, 50);
  assert.deepEqual(
    [...a].sort((x, y) => x - y),
    a,
  );
  assert.ok(a.every((i) => i >= 0 && i < 1000));
  assert.deepEqual(sampleIndices(1000, 50, 7), a);
  assert.notDeepEqual(sampleIndices(1000, 50, 8), a);
  assert.deepEqual(sampleIndices(4, 10, 1), [0, 1, 2, 3]);
  // Every index is equally likely: over 2000 draws of 10 from 20, each index is picked about 1000 times.
  const counts = new Array(20).fill(0);
  for (let seed = 0; seed < 2000; seed++) for (const i of sampleIndices(20, 10, seed)) counts[i]++;
  assert.ok(
    counts.every((c) => c > 880 && c < 1120),
    `counts ${counts.join(",")}`,
  );
});

test("the index draws run in WebAssembly on Node 20 (so the test below checks the kernel)", () => {
  assert.ok(indexDrawKernel());
});

test("seededIndexFiller draws the same indices as flooring seededRandom draws, its stream continuing across calls", () => {
  for (const [seed, n] of [
    [1, 1304],
    [7, 3],
    [123456789, 100000],
    [99, 1],
    [5, 2147483647],
  ]) {
    const random = seededRandom(seed);
    const fill = seededIndexFiller(seed);
    fill(new Int32Array(0), n);
    for (let round = 0; round < 3; round++) {
      const out = new Int32Array(257 + 1000 * round);
      fill(out, n);
      const expected = Array.from({ length: out.length }, () => Math.floor(random() * n));
      assert.deepEqual(Array.from(out), expected);
      assert.ok(out.every((i) => i >= 0 && i < n));
    }
  }
});

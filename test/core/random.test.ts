import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";

test("seeded random repeats the same sequence for the same seed and differs for another", () => {
  const a = seededRandom(42);
  const b = seededRandom(42);
  const c = seededRandom(43);
  const seqA = Array.from({ length: 5 }, a);
  assert.deepEqual(seqA, Array.from({ length: 5 }, b));
  assert.notDeepEqual(seqA, Array.from({ length: 5 }, c));
  for (const x of seqA) assert.ok(x >= 0 && x < 1);
});

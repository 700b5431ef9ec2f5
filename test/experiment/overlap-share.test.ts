import { test } from "node:test";
import assert from "node:assert/strict";
import { parseOverlapList, resolveOverlaps } from "../../src/experiment/overlap-share";

test("overlaps may be shares of the chunk size, resolved per size and deduplicated", () => {
  const overlaps = parseOverlapList("0,10%,20%");
  assert.deepEqual(overlaps, [0, { percent: 10 }, { percent: 20 }]);
  assert.deepEqual(resolveOverlaps(overlaps, 500), [0, 50, 100]);
  assert.deepEqual(resolveOverlaps(overlaps, 2000), [0, 200, 400]);
  // 10% of 1000 is the absolute 100 already listed: one config, not two.
  assert.deepEqual(resolveOverlaps(parseOverlapList("100,0,10%"), 1000), [0, 100]);
  // 12.5% of 300 rounds to 38.
  assert.deepEqual(resolveOverlaps(parseOverlapList("12.5%"), 300), [38]);
});

test("a bad overlap names the flag and the item", () => {
  assert.throws(() => parseOverlapList("0,ten"), /--overlaps: "ten" is neither a whole number nor a share like 10%/);
  assert.throws(() => parseOverlapList("0,100%"), /"100%" must be below 100% of the chunk size/);
  assert.throws(() => parseOverlapList(" , "), /--overlaps needs at least one overlap/);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { loadCorpus } from "../../src/corpus/load";
import { damageGainRows, gainFinding, seamDamageRows } from "../../src/study/damage";

test("02's overlap gain is paired: same documents and pairs, a CI narrower than the two shares' CIs side by side", () => {
  const docs = loadCorpus("moby-dick").docs.slice(0, 40);
  const rows = seamDamageRows(docs, ["langchain", "window"], 1000, [0, 300], { sample: "all" });
  const [lc0, lc300, w0, w300] = rows;
  assert.deepEqual([lc0.gain, lc0.gainLow, lc0.gainHigh, w0.gain], [0, 0, 0, 0]);
  for (const [first, last] of [
    [lc0, lc300],
    [w0, w300],
  ]) {
    assert.ok(Math.abs(last.gain - (last.value - first.value)) < 1e-12, last.label);
    assert.ok(last.gainLow <= last.gain && last.gain <= last.gainHigh, last.label);
    // Paired: each document's change, not two independent shares.
    assert.ok(last.gainHigh - last.gainLow < last.high - last.low + (first.high - first.low), last.label);
  }
  // A sliding window keeps more pairs with more overlap on every document: the whole CI is above zero.
  assert.ok(w300.gainLow > 0);
  const table = damageGainRows(rows);
  assert.match(String(table[1]["gain 95% CI (paired)"]), /^\[\+\d+\.\d, \+\d+\.\d\]$/);
  assert.match(
    gainFinding(rows, ["langchain", "window"], [0, 300]),
    /^Raising the overlap from 0 to 300 characters changes the kept share by \*\*[+−]\d+\.\d points\*\* \[[+−]\d+\.\d, [+−]\d+\.\d\] for `langchain`, \*\*\+\d+\.\d points\*\* \[\+/,
  );
});

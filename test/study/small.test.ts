import { test } from "node:test";
import assert from "node:assert/strict";
import { withCountTitle } from "../../src/study/seams";
import { pct, pctInterval } from "../../src/study/format";
import { pText, thousands } from "../../src/stats/format";
import { seamDamageRows } from "../../src/study/damage";
import { wilsonInterval } from "../../src/stats/proportion";

test("prose numbers round once, the same way everywhere", () => {
  assert.equal(pct(0.66274), "66.3%");
  assert.equal(pctInterval({ low: 0.5, high: 0.75 }), "[50.0%, 75.0%]");
  assert.equal(thousands(1212842), "1,212,842");
  assert.equal(thousands(59.294, 1), "59.3");
  assert.equal(pText(0.0004), "p < 0.001");
  assert.equal(pText(0.44189), "p = 0.44");
  assert.equal(pText(0.0042), "p = 0.004");
  assert.equal(pct(Number.NaN), "n/a");
});

test("a histogram's count axis can be renamed without touching the original spec", () => {
  const spec = { spec: { layer: [{ encoding: { y: { title: "seams" } } }] } };
  const renamed = withCountTitle(spec, "paragraphs") as typeof spec;
  assert.equal(renamed.spec.layer[0].encoding.y.title, "paragraphs");
  assert.equal(spec.spec.layer[0].encoding.y.title, "seams");
});

test("seam damage rows: one chunk covering the whole doc keeps its only straddling pair", () => {
  const docs = [{ id: "d", text: "One short sentence. The end of it.\n\nNext paragraph here. And more." }];
  const rows = seamDamageRows(docs, ["window"], 500, [0, 100]);
  assert.deepEqual(
    rows.map((r) => [r.label, r.pairs, r.kept, r.value]),
    [
      ["window 500/0", 1, 1, 1],
      ["window 500/100", 1, 1, 1],
    ],
  );
  assert.deepEqual({ low: rows[0].low, high: rows[0].high }, wilsonInterval(1, 1));
});

test("seam damage rows skip overlaps that are not smaller than the size", () => {
  const docs = [{ id: "d", text: "A b.\n\nC d." }];
  assert.deepEqual(
    seamDamageRows(docs, ["window"], 100, [0, 100, 200]).map((r) => r.overlap),
    [0],
  );
});

import test from "node:test";
import assert from "node:assert/strict";
import { measureSplitterConfig } from "../../src/measure/split-and-measure";
import { seamSummaryRows, zeroOverlapFinding } from "../../src/study/seams";

const paragraph = (i: number) => `Paragraph ${i} ` + "word ".repeat(60 + (i % 7) * 9).trim() + ".";
const docs = Array.from({ length: 12 }, (_, d) => ({
  id: `doc-${d}.md`,
  text: Array.from({ length: 8 + (d % 3) }, (_, i) => paragraph(d + i)).join("\n\n"),
}));

test("01's zero-overlap sentence quotes the share and its CI with one decimal, as the seams table holds them", () => {
  const measured = [measureSplitterConfig(docs, { splitter: "langchain", size: 700, overlap: 200, unit: "chars" })];
  const row = seamSummaryRows(measured)[0];
  const text = zeroOverlapFinding(measured, 200);
  const low = (row["95% CI low (%)"] as number).toFixed(1);
  const high = (row["95% CI high (%)"] as number).toFixed(1);
  assert.match(text, new RegExp(`\\*\\*${measured[0].summary.zeroOverlapPct.toFixed(1)}% of `));
  assert.ok(text.includes(`(95% CI ${low}–${high}%)`), text);
});

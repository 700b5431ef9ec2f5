import { test } from "node:test";
import assert from "node:assert/strict";
import type { Notebook } from "../../src/report/nbformat";
import { renderNotebook } from "../../src/report/render";
import { renderIndex, type IndexPage } from "../../src/report/index-page";
import { checkedRecommendation, recommendationHtml } from "../../src/report/recommendation";
import { recommendationBundle } from "../../src/notebook/bundles";
import type { RecommendationPayload } from "../../src/notebook/mime";

const EVIL = "<script>alert(1)</script>";

const decided: RecommendationPayload = {
  state: "decided",
  action: "langchain, 1000 chars, overlap 150",
  sureness: "1-point margin, 376 header queries (## and ###)",
  stability: "stable",
  reason: "**Use overlap 150**: the cheapest setting within 1 point of the best.",
  exported: { seamlab: "chosen-config", overlap: 150 },
};
const leaning: RecommendationPayload = {
  state: "leaning",
  action: `overlap 300 ${EVIL}`,
  sureness: `1-point margin, 99 queries from ${EVIL}`,
  reason: `No setting is shown within 1 point of the best ${EVIL}.`,
  settle: `seamlab sweep --corpus "${EVIL}" --query-sample 2000`,
};

const summary = { corpus: "c", generatedAt: "2026-12-04", version: "0.1.0", commit: "abc", totalMs: 1000 };
const page = (name: string, recommendation?: RecommendationPayload): IndexPage => ({
  name,
  title: `Page ${name}`,
  headlines: [{ key: "recommended_overlap", value: 150 }],
  recommendation,
  status: "ok",
  charts: 0,
  tables: 0,
});

test("a decided recommendation leads the index in the big style, links its page and the exported config", () => {
  const html = renderIndex([page("01"), page("03", decided)], summary);
  const doThis = html.indexOf('id="do-this"');
  assert.ok(doThis > 0 && doThis < html.indexOf('class="meta"'), "Do this comes before everything else");
  assert.match(html, /<strong class="value">langchain, 1000 chars, overlap 150<\/strong>/);
  assert.match(html, /href="chosen\.json" download/);
  assert.match(html, /href="03\.html#do-this"/);
  assert.match(html, /Stability:<\/strong> stable/);
});

test("a leaning recommendation never takes the big style, shows the settling command, and is escaped", () => {
  const html = recommendationHtml(leaning);
  assert.doesNotMatch(html, /class="value"/);
  assert.match(html, /Leaning \(not decided\)/);
  assert.match(html, /To settle it:/);
  assert.ok(!html.includes("<script>"), "corpus text is escaped");
  assert.ok(html.includes("&lt;script&gt;"));
  assert.doesNotMatch(html, /chosen\.json/, "no export link without an exported config");
});

test("a recommendation output is collected from a page, and one without its fields is a render problem", async () => {
  const output = (data: Record<string, unknown>) => ({ output_type: "display_data", data, metadata: {} });
  const notebook = (data: Record<string, unknown>): Notebook =>
    ({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        { cell_type: "markdown", source: "# Sweep", metadata: {} },
        { cell_type: "code", source: "x", metadata: {}, execution_count: 1, outputs: [output(data)] },
      ],
    }) as unknown as Notebook;
  const good = await renderNotebook(notebook(recommendationBundle(leaning).data), "03-sweep");
  assert.deepEqual(good.recommendation, leaning);
  assert.match(good.html, /<div id="do-this" class="do-this not-decided"/);
  assert.deepEqual(good.problems, []);
  const bad = await renderNotebook(
    notebook({ "application/vnd.seamlab.recommendation+json": { state: "sure", action: 1 }, "text/plain": "x" }),
    "03-sweep",
  );
  assert.equal(bad.recommendation, undefined);
  assert.equal(bad.problems.length, 1);
  assert.equal(checkedRecommendation({ ...decided, exported: [1] }), undefined);
});

test("the recommendation bundle's text says leaning, not do this, when the verdict is not decided", () => {
  const text = String(recommendationBundle(leaning).data["text/plain"]);
  assert.match(text, /^Leaning: overlap 300/);
  assert.match(String(recommendationBundle(decided).data["text/plain"]), /^Do this: langchain/);
});

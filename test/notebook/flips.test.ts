import { test } from "node:test";
import assert from "node:assert/strict";
import { flipRows } from "../../src/study/flips";
import { flipHtml, flipsPageHtml, piecesText } from "../../src/notebook/flips";
import { a, b, doc, queries } from "../helpers/flips-fixture";

test("flip HTML escapes every character of the corpus and marks the gold and the seams", () => {
  const [win] = flipRows([doc], queries, a, b).rows;
  const html = flipHtml(win, "A <x>", "B");
  assert.ok(!html.includes("<b>Gold"), "corpus markup never reaches the page unescaped");
  assert.ok(html.includes("<mark>&lt;b&gt;Gold</mark>"));
  assert.ok(html.includes("<mark> &amp; text&lt;/b&gt;</mark>"));
  assert.ok(html.includes("A &lt;x&gt;"));
  assert.match(html, /<span class="seam" title="chunk 0 ends at 14"/);
});

test("a flips page escapes its heading lines and lists B's wins and losses in their own sections", () => {
  const { summary, rows } = flipRows([doc], queries, a, b);
  const page = flipsPageHtml({ title: "t <i>", lines: ["corpus <x>"], summary, nameA: "A", nameB: "B" }, rows);
  assert.ok(page.includes("<title>t &lt;i&gt;</title>") && page.includes("<p>corpus &lt;x&gt;</p>"));
  assert.match(page, /Queries B wins \(B hits, A misses\) \(1\)<\/h2><section class="flip">/);
  assert.match(page, /Queries B loses \(A hits, B misses\) \(1\)<\/h2><section class="flip">/);
});

test("plain text previews of long text start just before the gold, so the gold is in view", () => {
  const pieces = [
    { kind: "text" as const, text: "x".repeat(500), gold: false },
    { kind: "text" as const, text: "GOLD", gold: true },
  ];
  const preview = piecesText(pieces, 100);
  assert.ok(preview.length <= 100 && preview.includes("[[GOLD]]") && preview.startsWith("…"));
});

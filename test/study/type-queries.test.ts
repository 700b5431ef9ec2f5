import { test } from "node:test";
import assert from "node:assert/strict";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blankHeadingLine, loadTypedInputs, typedHeaderQueries } from "../../src/study/type-queries";
import { statedAnswer } from "../../src/study/type-sweep";

const docs = [
  {
    id: "a.md",
    text:
      "# Title\n\nIntro text here.\n\n## How do I start?\n\nRun the installer. Then wait.\n\n" +
      "## Options\n\n```js\nconst x = 1\n```\n\nThe options object sets everything.\n\n### Deep\n\nA deep answer.\n",
  },
];

test("a blanked heading keeps its #s and a final ?, same length", () => {
  assert.equal(blankHeadingLine("## How do I start?\n"), "##               ?\n");
  assert.equal(blankHeadingLine("### Deep"), "###     ");
  assert.equal(blankHeadingLine("## How do I start?\n").length, "## How do I start?\n".length);
});

test("typed header queries: the same queries and gold text as header queries, at the original offsets, typed by section", () => {
  const plain = buildHeaderQueries(docs);
  const typed = typedHeaderQueries(docs);
  assert.deepEqual(
    typed.queries.map((q) => q.text),
    plain.queries.map((q) => q.text),
  );
  typed.queries.forEach((q, i) => {
    const g = q.gold[0];
    const p = plain.queries[i].gold[0];
    assert.equal(typed.docs[0].text.slice(g.start, g.end), plain.docs[0].text.slice(p.start, p.end));
    assert.equal(docs[0].text.slice(g.start, g.end), plain.docs[0].text.slice(p.start, p.end));
  });
  assert.equal(typed.docs[0].text.length, docs[0].text.length);
  assert.doesNotMatch(typed.docs[0].text, /How do I start|Options|Deep/);
  assert.deepEqual(typed.types, ["faq", "reference", "prose"]);
});

test("the stated answer names a gain only when the paired CI excludes zero and McNemar's p is below 0.05", () => {
  const base = {
    queries: 100,
    wins: 10,
    losses: 2,
    ties: 88,
    hitRateA: 0.9,
    hitRateB: 0.82,
    mcnemarP: 0.04,
    level: 0.95,
  };
  assert.match(
    statedAnswer({ ...base, diff: 0.08, diffCI: { low: 0.02, high: 0.14 } }),
    /^per-type settings gain 8\.0 points \[\+2\.0, \+14\.0\]/,
  );
  assert.match(
    statedAnswer({ ...base, diff: 0.02, diffCI: { low: -0.01, high: 0.05 } }),
    /^no measurable gain: keep one setting \(per type minus uniform: \+2\.0 points \[−1\.0, \+5\.0\]/,
  );
  assert.match(statedAnswer({ ...base, diff: -0.05, diffCI: { low: -0.09, high: -0.01 } }), /lose 5\.0 points/);
  assert.match(
    statedAnswer({ ...base, mcnemarP: 0.06, diff: 0.08, diffCI: { low: 0.02, high: 0.14 } }),
    /^no measurable gain: keep one setting/,
  );
});

test("headers+ict: both query sets over one text, every gold span inside it, typed by section", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-typed-inputs-"));
  try {
    const sentences = (topic: string, n: number) =>
      Array.from(
        { length: n },
        (_, i) => `The ${topic} number ${i} is described here in plain words for readers.`,
      ).join(" ");
    const page = (i: number) =>
      `# Page ${i}\n\n## Part ${i} overview\n\n${sentences(`part${i}`, 6)}\n\n${sentences(`more${i}`, 6)}\n\n` +
      "```js\nconst x = 1\n```\n";
    for (let i = 0; i < 8; i++) writeFileSync(join(dir, `p${i}.md`), page(i));
    const inputs = loadTypedInputs(dir, "headers+ict");
    const counts = /^(\d+) header queries.*, and (\d+) inverse-cloze/.exec(inputs.querySource);
    assert.ok(counts, inputs.querySource);
    assert.equal(Number(counts[1]), 8);
    assert.ok(Number(counts[2]) > 0);
    assert.equal(Number(counts[1]) + Number(counts[2]), inputs.queries.length);
    assert.equal(inputs.types.length, inputs.queries.length);
    const byId = new Map(inputs.sweepDocs.map((d) => [d.id, d]));
    for (const q of inputs.queries) {
      const g = q.gold[0];
      const text = byId.get(g.doc)!.text;
      assert.ok(0 <= g.start && g.start < g.end && g.end <= text.length);
      assert.match(text.slice(g.start, g.end), /\S/);
    }
    assert.doesNotMatch(inputs.sweepDocs[0].text, /Part 0 overview/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

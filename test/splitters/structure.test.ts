// The `structure` splitter on small hand-made fixtures (input file + expected chunks, markdown-it style) and on
// broken input: every case has a defined result, and the spans always cover every non-whitespace character.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Chunk, Doc } from "../../src/core/types";
import type { SplitterConfig } from "../../src/splitters/config";
import { splitDoc } from "../../src/splitters/registry";
import { classifyDoc } from "../../src/corpus/doc-types";
import { measureStructureDamage } from "../../src/measure/structure-damage";

const fixtures = fileURLToPath(new URL("../fixtures/structure/", import.meta.url));

/** Spans are in order, inside the text, and leave only whitespace uncovered; text is the slice (or header + slice). */
function assertCovers(doc: Doc, chunks: Chunk[]): void {
  let covered = 0;
  for (const c of chunks) {
    assert.ok(0 <= c.start && c.start < c.end && c.end <= doc.text.length, `[${c.start}, ${c.end})`);
    assert.ok(c.text.endsWith(doc.text.slice(c.start, c.end)), `text of [${c.start}, ${c.end}) is not its slice`);
    if (c.start > covered) assert.match(doc.text.slice(covered, c.start), /^\s*$/, `text lost before ${c.start}`);
    covered = Math.max(covered, c.end);
  }
  assert.match(doc.text.slice(covered), /^\s*$/, "text lost at the end");
}

for (const name of readdirSync(fixtures).filter((f) => f.endsWith(".expected.json"))) {
  const stem = name.slice(0, -".expected.json".length);
  const input = readdirSync(fixtures).find((f) => f.startsWith(stem + ".") && !f.endsWith(".json"))!;
  test(`structure splits the ${stem} fixture (${input}) as written in ${name}`, () => {
    const expected = JSON.parse(readFileSync(fixtures + name, "utf8")) as { config: SplitterConfig; chunks: string[] };
    const doc: Doc = { id: input, text: readFileSync(fixtures + input, "utf8"), source: fixtures + input };
    const chunks = splitDoc(doc, expected.config);
    assert.deepEqual(
      chunks.map((c) => c.text),
      expected.chunks,
    );
    assertCovers(doc, chunks);
    // Spans by hand: each chunk's span is where its (header-less) text sits in the source, in order.
    let from = 0;
    for (const c of chunks) {
      const body = doc.text.slice(c.start, c.end);
      const at = doc.text.indexOf(body, from);
      assert.equal(c.start, at);
      from = at + 1;
    }
  });
}

test("fixture types: reference, faq, prose, transcript, code and table are told apart", () => {
  const typeOf = (file: string) =>
    classifyDoc({ id: file, text: readFileSync(fixtures + file, "utf8"), source: fixtures + file }).type;
  assert.deepEqual(["reference.md", "faq.md", "prose.txt", "transcript.md", "code.js", "table.csv"].map(typeOf), [
    "reference",
    "faq",
    "prose",
    "transcript",
    "code",
    "table",
  ]);
});

const config = (size: number, overlap = 0, extra?: Record<string, unknown>): SplitterConfig => ({
  splitter: "structure",
  size,
  overlap,
  ...(extra ? { extra } : {}),
});

test("an unclosed code fence runs to the end of the document and stays whole under the hard limit", () => {
  const text = "# Setup\n\nInstall it first.\n\n```sh\nnpm install fastify\nnpm test\n" + "echo done\n".repeat(6);
  const doc: Doc = { id: "unclosed.md", text };
  const chunks = splitDoc(doc, config(60));
  assertCovers(doc, chunks);
  const fence = text.indexOf("```sh");
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end]),
    [
      [0, text.indexOf("first.") + 6],
      [fence, text.trimEnd().length],
    ],
  );
  const damage = measureStructureDamage([doc], chunks);
  assert.equal(damage.kinds["code-block"].units, 1);
  assert.equal(damage.kinds["code-block"].damaged, 0);
});

test("a 50 KB code block past the hard limit is cut at line boundaries into pieces no longer than the size", () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `  const value${i} = compute(${i});`);
  const text = "## Big\n\n```js\n" + lines.join("\n") + "\n```\n";
  assert.ok(text.length > 50_000);
  const doc: Doc = { id: "big.md", text };
  const chunks = splitDoc(doc, config(1000, 200));
  assertCovers(doc, chunks);
  for (const c of chunks) {
    assert.ok(c.end - c.start <= 1000, `piece of ${c.end - c.start} chars`);
    assert.ok(c.start === 0 || text[c.start - 1] === "\n" || /^\s/.test(text.slice(c.start - 2, c.start)), "mid-line");
  }
  // Every seam cuts the block, and every cut is counted as a cut inside an over-limit unit.
  const damage = measureStructureDamage([doc], chunks, { limit: 2000 });
  assert.equal(damage.kinds["code-block"].damaged, chunks.length - 1);
  assert.equal(damage.kinds["code-block"].inOversize, chunks.length - 1);
  assert.equal(damage.anyDamaged, 0);
});

test("a ragged table (rows with different cell counts) is one table, kept whole under the hard limit", () => {
  const table = "| a | b | c |\n| --- | --- | --- |\n| 1 | 2 |\n| 1 | 2 | 3 | 4 |\n| only one |\n";
  const text = "## Table\n\nSome words first.\n\n" + table + "\nAfter the table.\n";
  const doc: Doc = { id: "ragged.md", text };
  const chunks = splitDoc(doc, config(50));
  assertCovers(doc, chunks);
  const start = text.indexOf("| a |");
  assert.ok(chunks.some((c) => c.start === start && c.end === start + table.length - 1));
  assert.equal(measureStructureDamage([doc], chunks).kinds.table.damaged, 0);
});

test("a table past the hard limit is split between rows and every later piece carries the header row", () => {
  const header = "| name | value |\n| --- | --- |";
  const rows = Array.from({ length: 30 }, (_, i) => `| row${i} | ${i * 7} |`);
  const text = `## Table\n\n${header}\n${rows.join("\n")}\n`;
  const doc: Doc = { id: "t.md", text };
  const chunks = splitDoc(doc, config(120, 0, { hardLimit: 200 }));
  assertCovers(doc, chunks);
  assert.ok(chunks.length > 3);
  for (const c of chunks.slice(1)) {
    assert.ok(c.text.startsWith(header + "\n| row"), c.text.slice(0, 40));
    assert.equal(c.text.slice(header.length + 1), text.slice(c.start, c.end));
  }
  const damage = measureStructureDamage([doc], chunks);
  assert.equal(damage.kinds.table.damaged, 0, "cuts between rows with the header carried are not damage");
  // The same cuts without the header carried are damage: rows cut off from their header.
  const bare = chunks.map((c) => ({ ...c, text: text.slice(c.start, c.end) }));
  assert.equal(measureStructureDamage([doc], bare).kinds.table.damaged, chunks.length - 1);
});

test("a table whose header is longer than half the size is split by lines without carrying the header", () => {
  const header = "| " + Array.from({ length: 12 }, (_, i) => `column${i}`).join(" | ") + " |";
  const rows = Array.from({ length: 400 }, (_, i) => `| ${i} | ${"x ".repeat(i % 7)}|`);
  const text = `${header}\n| --- | --- |\n${rows.join("\n")}\n`;
  const doc: Doc = { id: "wide.md", text };
  const chunks = splitDoc(doc, config(200, 0));
  assertCovers(doc, chunks);
  for (const c of chunks) {
    assert.equal(c.text, text.slice(c.start, c.end));
    assert.ok(c.end - c.start <= 200);
  }
});

test("a heading with no content joins the next section and is never left alone at a chunk's end", () => {
  const text = "## Empty\n\n## Next\n\nSome content under the next heading.\n\n## Last\n\nMore.";
  const doc: Doc = { id: "h.md", text };
  const typed = classifyDoc(doc);
  assert.equal(typed.sections[0].type, typed.sections[1].type);
  const chunks = splitDoc(doc, config(60));
  assertCovers(doc, chunks);
  assert.equal(chunks[0].start, 0);
  assert.ok(chunks[0].text.includes("Some content"));
});

test("a file of no type is 'unknown' and its spans still cover the text", () => {
  const text = "----\n\n====\n\n***\n\n" + "=-=-".repeat(40) + "\n\n[x]: http://example.com\n";
  const doc: Doc = { id: "odd.txt", text };
  assert.equal(classifyDoc(doc).type, "unknown");
  const chunks = splitDoc(doc, config(50, 10));
  assertCovers(doc, chunks);
  assert.ok(chunks.every((c) => c.end - c.start <= 50));
});

test("--per-type settings: each type gets its own size and overlap; bad settings name the type", () => {
  const prose = readFileSync(fixtures + "prose.txt", "utf8");
  const doc: Doc = { id: "prose.txt", text: prose };
  const noOverlap = splitDoc(doc, config(90, 50, { perType: { prose: { size: 90, overlap: 0 } } }));
  for (let i = 1; i < noOverlap.length; i++) assert.ok(noOverlap[i].start >= noOverlap[i - 1].end);
  assert.throws(
    () => splitDoc(doc, config(90, 50, { perType: { poetry: { size: 9, overlap: 0 } } })),
    /unknown type "poetry"/,
  );
  assert.throws(() => splitDoc(doc, config(90, 50, { perType: { faq: { size: 100, overlap: 100 } } })), /"faq" needs/);
});

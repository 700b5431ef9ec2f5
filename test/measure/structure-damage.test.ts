// Structural damage per seam, on hand-made documents with hand-placed chunk boundaries.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { measureStructureDamage } from "../../src/measure/structure-damage";

const chunk = (doc: Doc, start: number, end: number): Chunk => ({
  doc: doc.id,
  start,
  end,
  text: doc.text.slice(start, end),
});
const at = (doc: Doc, needle: string) => {
  const i = doc.text.indexOf(needle);
  assert.ok(i >= 0, needle);
  return i;
};

const reference: Doc = {
  id: "ref.md",
  text: [
    "## Options",
    "",
    "Pass these when you create the app.",
    "",
    "```js",
    "const app = fastify({ logger: true })",
    "app.listen()",
    "```",
    "",
    "| name | default |",
    "| --- | --- |",
    "| logger | false |",
    "| trustProxy | false |",
    "",
    "- first item that wraps",
    "  onto a second line",
    "- second item",
    "",
  ].join("\n"),
};

test("a boundary inside a code block, a table row and a list item is damage of each kind; between blocks it is none", () => {
  const d = reference;
  const cuts = [at(d, "app.listen"), at(d, "| trustProxy") + 5, at(d, "onto a second")];
  const bounds = [0, ...cuts, d.text.length];
  const chunks = bounds.slice(1).map((end, i) => chunk(d, bounds[i], end));
  const damage = measureStructureDamage([d], chunks);
  assert.equal(damage.seams, 3);
  assert.equal(damage.kinds["code-block"].damaged, 1);
  assert.equal(damage.kinds.table.damaged, 1);
  assert.equal(damage.kinds["list-item"].damaged, 1);
  assert.equal(damage.kinds.heading.damaged, 0);
  assert.equal(damage.anyDamaged, 3);
  assert.equal(damage.byType.reference?.seams, 3);

  // Cutting only between blocks damages nothing.
  const clean = [at(d, "```js"), at(d, "| name"), at(d, "- first")];
  const cb = [0, ...clean, d.text.length];
  const ok = measureStructureDamage(
    [d],
    cb.slice(1).map((end, i) => chunk(d, cb[i], end)),
  );
  assert.equal(ok.anyDamaged, 0);
});

test("a cut between table rows separates rows from their header unless the next chunk carries it", () => {
  const d = reference;
  const cut = at(d, "| trustProxy");
  const a = chunk(d, 0, cut - 1);
  const b = chunk(d, cut, d.text.length);
  assert.equal(measureStructureDamage([d], [a, b]).kinds.table.damaged, 1);
  const carried = { ...b, text: "| name | default |\n| --- | --- |\n" + b.text };
  assert.equal(measureStructureDamage([d], [a, carried]).kinds.table.damaged, 0);
});

test("overlap that holds the whole unit in one chunk repairs the cut", () => {
  const d = reference;
  const blockStart = at(d, "```js");
  const blockEnd = at(d, "| name") - 2;
  // a ends inside the code block, but b starts before it and holds it whole
  const a = chunk(d, 0, at(d, "app.listen"));
  const b = chunk(d, blockStart - 2, d.text.length);
  const damage = measureStructureDamage([d], [a, b]);
  assert.equal(damage.kinds["code-block"].damaged, 0);
  assert.ok(blockEnd > blockStart);
});

test("a heading at a chunk's end without its content is stranded; an FAQ question cut from its answer is FAQ damage", () => {
  const d: Doc = { id: "faq.md", text: "## Is it fast?\n\nYes, very fast indeed.\n\n## Next?\n\nMaybe.\n" };
  const a = chunk(d, 0, at(d, "Yes") - 2);
  const b = chunk(d, at(d, "Yes"), d.text.length);
  const damage = measureStructureDamage([d], [a, b]);
  assert.equal(damage.kinds.heading.damaged, 1);
  assert.equal(damage.kinds.faq.damaged, 1);
  assert.equal(damage.byType.faq?.seams, 1);
});

test("a cut inside a speaker turn of a transcript and inside a JS function are counted", () => {
  const t: Doc = {
    id: "talk.md",
    text: "Ann: Hello there, welcome.\n\nBen: Thanks for having me here today.\n\nAnn: Let us start.\n\nBen: Sure thing.\n",
  };
  const cut = at(t, "for having");
  const turns = measureStructureDamage([t], [chunk(t, 0, cut), chunk(t, cut, t.text.length)]);
  assert.equal(turns.kinds.turn.damaged, 1);
  assert.equal(turns.byType.transcript?.seams, 1);

  const js: Doc = { id: "lib.js", text: "const a = 1\n\nfunction f (x) {\n  return x + 1\n}\n\nmodule.exports = f\n" };
  const inside = at(js, "return");
  const code = measureStructureDamage([js], [chunk(js, 0, inside), chunk(js, inside, js.text.length)]);
  assert.equal(code.kinds.function.units, 1);
  assert.equal(code.kinds.function.damaged, 1);
  const between = at(js, "function");
  const clean = measureStructureDamage([js], [chunk(js, 0, between), chunk(js, between, js.text.length)]);
  assert.equal(clean.kinds.function.damaged, 0);
});

test("cuts inside units longer than the limit are counted apart", () => {
  const d: Doc = { id: "big.md", text: "```\n" + "x = 1\n".repeat(50) + "```\n" };
  const chunks = [chunk(d, 0, 100), chunk(d, 100, 200), chunk(d, 200, d.text.length)];
  const damage = measureStructureDamage([d], chunks, { limit: 150 });
  assert.equal(damage.kinds["code-block"].damaged, 2);
  assert.equal(damage.kinds["code-block"].inOversize, 2);
  assert.equal(damage.anyDamaged, 0);
});

// The structure limit ("units longer than this cannot fit a chunk") is in the chunks' unit: tokens for a
// token-sized config, so a code block of 700 characters (about 180 tokens) is not unsplittable in 256-token chunks.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Chunk, Doc } from "../../src/core/types";
import { measureDocSeams } from "../../src/measure/doc-seams";
import { measureStructureDamage } from "../../src/measure/structure-damage";
import { damageRateRows } from "../../src/study/structure-damage";
import { countTokens } from "../../src/text/tokens";

const prose = "The collector receives spans and batches them before export. ".repeat(8);
const code = "```ts\n" + "const value = compute(42);\n".repeat(25) + "```\n";
const doc: Doc = { id: "guide.md", text: `${prose}\n\n${code}\n${prose}\n` };
const codeStart = doc.text.indexOf("```ts");
// Two chunks cut in the middle of the code block.
const cut = codeStart + 300;
const chunks: Chunk[] = [
  { doc: doc.id, start: 0, end: cut, text: doc.text.slice(0, cut) },
  { doc: doc.id, start: cut, end: doc.text.length, text: doc.text.slice(cut) },
];
const config = { splitter: "recursive", size: 256, overlap: 0, unit: "tokens" as const };

test("the code block is longer than 512 characters but shorter than 512 tokens: the case this file is about", () => {
  const block = code.trim();
  assert.ok(block.length > 512, `${block.length} chars`);
  assert.ok(countTokens(block) < 512, `${countTokens(block)} tokens`);
});

test("with --unit tokens, a cut inside a code block under 2 x size tokens is damage, not 'too long for any chunk'", () => {
  const part = measureDocSeams(doc, chunks, config, { structureLimit: 2 * config.size });
  const code = part.structure.kinds["code-block"];
  assert.equal(part.structure.limitUnit, "tokens");
  assert.equal(code.units, 1);
  assert.equal(code.unitsOverLimit, 0);
  assert.equal(code.damaged, 1);
  assert.equal(code.inOversize, 0);
  const any = damageRateRows("recursive", part.structure).find((r) => r.type === "all" && r.kind === "any")!;
  assert.equal(any.damaged, 1);
});

test("in characters the same block is over a 512-char limit and its cut is counted apart", () => {
  const damage = measureStructureDamage([doc], chunks, { limit: 512 });
  assert.equal(damage.limitUnit, "chars");
  assert.equal(damage.kinds["code-block"].unitsOverLimit, 1);
  assert.equal(damage.kinds["code-block"].inOversize, 1);
});

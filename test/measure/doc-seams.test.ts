// Seams measured one document at a time and summed equal the whole-corpus measurement, for several splitters.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Doc } from "../../src/core/types";
import { loadCorpus } from "../../src/corpus/load";
import { classifyDoc } from "../../src/corpus/doc-types";
import { addDocSeams, createSeamTotals, finishSeamTotals, measureDocSeams } from "../../src/measure/doc-seams";
import { measureSplitterConfig } from "../../src/measure/split-and-measure";
import { measureStructureDamage, structureLimitUnit } from "../../src/measure/structure-damage";
import type { SplitterConfig } from "../../src/splitters/config";
import { splitCorpus, splitDoc } from "../../src/splitters/registry";
import { generatedProse } from "../helpers/prose";

const fixtures = fileURLToPath(new URL("../fixtures/structure", import.meta.url));

const configs: SplitterConfig[] = [
  { splitter: "recursive", size: 120, overlap: 30 },
  { splitter: "window", size: 100, overlap: 20 },
  { splitter: "tail", size: 90, overlap: 20 },
  { splitter: "structure", size: 150, overlap: 30 },
  { splitter: "tokens", size: 30, overlap: 6, unit: "tokens", encoding: "cl100k_base" },
];

/** The structure fixtures (code, FAQ, table, transcript, prose) plus generated prose with backward openers. */
function corpus(): Doc[] {
  const docs = loadCorpus(fixtures).docs;
  for (let i = 0; i < 3; i++) {
    const text = generatedProse(1500, 11 + i)
      .split("\n\n")
      .map((p, j) => (j % 2 ? `This ${p}` : p))
      .join("\n\n");
    docs.push({ id: `generated-${i}.md`, text });
  }
  return docs;
}

let backwardOpeners = 0;

for (const config of configs) {
  test(`${config.splitter} ${config.size}/${config.overlap}: per-document parts sum to the whole-corpus numbers`, () => {
    const docs = corpus();
    assert.ok(docs.length >= 4, "the fixture corpus has several documents");
    const limit = Math.round(config.size * 0.9); // some chunks over the limit, so the count is exercised
    const structureLimit = 2 * config.size;
    const whole = measureSplitterConfig(docs, config, { limit, chunks: splitCorpus(docs, config) });
    const wholeStructure = measureStructureDamage(docs, whole.chunks, {
      typed: docs.map((doc) => classifyDoc(doc)),
      limit: structureLimit,
      unit: structureLimitUnit(config),
    });
    const totals = createSeamTotals();
    for (const doc of docs)
      addDocSeams(totals, measureDocSeams(doc, splitDoc(doc, config), config, { structureLimit }));
    const summed = finishSeamTotals(totals, config, { limit, structureLimit });
    assert.ok(whole.summary.seams > 10 && whole.summary.chunksOverLimit > 0, "a split with seams to compare");
    assert.ok(whole.seamDamage.pairs > 0 && wholeStructure.seams > 0);
    backwardOpeners += whole.openers.backwardOpeners;
    assert.deepEqual(summed.summary, whole.summary);
    assert.deepEqual(summed.seamDamage, whole.seamDamage);
    assert.deepEqual(summed.openers, whole.openers);
    assert.deepEqual(summed.paragraphs, whole.paragraphs);
    assert.deepEqual(summed.structure, wholeStructure);
    assert.equal(JSON.stringify(summed.structure), JSON.stringify(wholeStructure), "same key order too");
    assert.deepEqual(
      summed.perDoc.map((d) => [d.doc, d.seams]),
      docs.map((doc) => [doc.id, whole.seams.filter((s) => s.doc === doc.id).length]),
    );
  });
}

test("the comparison above included backward openers (their samples and word counts were summed)", () => {
  assert.ok(backwardOpeners > 0);
});

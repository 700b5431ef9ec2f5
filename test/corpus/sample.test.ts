import assert from "node:assert/strict";
import { test } from "node:test";
import type { Doc } from "../../src/core/types";
import {
  characterBudgetSample,
  documentSample,
  documentStrata,
  resolveSample,
  stratifiedSample,
} from "../../src/corpus/sample";

// 200 docs under a shared root: 150 in guides/ (short and long), 50 in reference/ (all long), 3 stray ones.
const docs: Doc[] = [
  ...Array.from({ length: 150 }, (_, i) => ({ id: `site/en/guides/g${i}.md`, text: "x".repeat(i % 2 ? 100 : 5000) })),
  ...Array.from({ length: 50 }, (_, i) => ({ id: `site/en/reference/r${i}.md`, text: "y".repeat(6000 + i) })),
  ...Array.from({ length: 3 }, (_, i) => ({ id: `site/en/misc${i}/m.md`, text: "z".repeat(50) })),
];

test("strata are the top folder below the shared root (small folders pooled) times the length quartile", () => {
  const strata = documentStrata(docs);
  assert.ok(strata[0].startsWith("guides|"));
  assert.ok(strata[150].startsWith("reference|"));
  assert.ok(strata[200].startsWith("(other)|"), "a folder with under 2% of the documents is pooled");
  assert.notEqual(strata[0], strata[1], "short and long guides fall in different quartiles");
});

test("a stratified sample allocates in proportion to the strata, is seeded, and keeps corpus order", () => {
  const { indexes } = stratifiedSample(docs, 40, 7);
  assert.equal(indexes.length, 40);
  assert.deepEqual(
    indexes,
    [...indexes].sort((a, b) => a - b),
  );
  const reference = indexes.filter((i) => i >= 150 && i < 200).length;
  // 50 of 203 documents are reference pages: 40 × 50/203 ≈ 9.9.
  assert.ok(reference >= 9 && reference <= 11, `reference pages sampled: ${reference}`);
  assert.deepEqual(stratifiedSample(docs, 40, 7).indexes, indexes);
  assert.notDeepEqual(stratifiedSample(docs, 40, 8).indexes, indexes);
  assert.equal(stratifiedSample(docs, 500, 1).indexes.length, docs.length);
});

test("a sample names itself; auto grows from the pilot until the sample in hand needs no more", () => {
  assert.match(documentSample(docs, 40).description, /^a seeded sample of 40 of 203 documents, stratified/);
  assert.equal(documentSample(docs, 203).description, "all 203 documents");
  const asked: number[] = [];
  const sample = resolveSample(docs, { kind: "auto", halfWidth: 0.01 }, (s) => {
    asked.push(s.docs.length);
    return 150;
  });
  assert.deepEqual(asked, [100, 150]);
  assert.equal(sample.docs.length, 150);
  assert.match(sample.description, /auto: sized for a 95% CI of ±1\.0 points/);
  const tooFew = resolveSample(docs, { kind: "auto", halfWidth: 0.01 }, () => 5000);
  assert.equal(tooFew.docs.length, 203);
  // A corpus too small for the target is measured whole and told so, never that it "would need" 5,000 documents.
  assert.equal(tooFew.description, "all 203 documents (auto: too few for a 95% CI of ±1.0 points)");
});

test("a character-budget sample holds about the budget, names it, and is the whole corpus when that fits", () => {
  const total = docs.reduce((sum, d) => sum + d.text.length, 0);
  const sample = characterBudgetSample(docs, Math.round(total / 4));
  const chars = sample.docs.reduce((sum, d) => sum + d.text.length, 0);
  assert.ok(sample.docs.length < docs.length && sample.docs.length >= 20, `${sample.docs.length} documents`);
  assert.ok(chars > total / 8 && chars < total / 2, `${chars} of ${total} characters for a budget of ${total / 4}`);
  assert.match(sample.description, /^a seeded sample of \d+ of 203 documents.*characters; budget [\d,]+\)$/);
  assert.equal(sample.strata.length, sample.docs.length);
  assert.equal(characterBudgetSample(docs, total).description, "all 203 documents");
  assert.equal(characterBudgetSample(docs, 1).docs.length, 20, "at least minDocs documents");
  assert.throws(() => characterBudgetSample(docs, 0), /character budget must be a positive number/);
  assert.throws(
    () => characterBudgetSample(docs, Number.NaN, { parameter: "libraryChars" }),
    /^SeamlabError: libraryChars must be a positive number of characters; got NaN/,
  );
});

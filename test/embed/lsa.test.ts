import assert from "node:assert/strict";
import { test } from "node:test";
import { SeamlabError } from "../../src/core/errors";
import { seededRandom } from "../../src/core/random";
import { fitLsa } from "../../src/embed/lsa";
import { randomizedSvd } from "../../src/embed/randomized-svd";
import { csrFromDense } from "../helpers/csr";
import { symmetricEigen } from "../../src/embed/symmetric-eigen";
import {
  countTermsWithin,
  fitTfidfFrequencies,
  tfidfCountRows,
  tfidfMatrix,
  type TfidfOptions,
} from "../../src/embed/tfidf";
import { cosine } from "../../src/embed/types";

/** The model from document frequencies alone (no per-text counts kept). */
const fitTfidf = (texts: string[], options: TfidfOptions = {}) =>
  fitTfidfFrequencies(countTermsWithin(texts, 0), options).model;
/** The model and column map from texts counted with every per-text count kept. */
const fitTfidfCounts = (texts: string[], options: TfidfOptions = {}) =>
  fitTfidfFrequencies(countTermsWithin(texts, Infinity), options);

function close(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);
}

test("symmetric eigendecomposition of [[2,1],[1,2]] gives 3 and 1 with the hand-computed vectors", () => {
  const { values, vectors } = symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
  close(values[0], 3, 1e-12, "largest eigenvalue");
  close(values[1], 1, 1e-12, "smallest eigenvalue");
  close(Math.abs(vectors[0]), Math.SQRT1_2, 1e-12, "first vector, entry 0");
  close(vectors[0] * vectors[2], 0.5, 1e-12, "first vector has equal-sign entries");
  close(vectors[1] * vectors[3], -0.5, 1e-12, "second vector has opposite-sign entries");
});

test("symmetric eigendecomposition satisfies A·v = λ·v with orthonormal vectors on a random 7×7 matrix", () => {
  const n = 7;
  const a = new Float64Array(n * n);
  let s = 1;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      s = (s * 16807) % 2147483647;
      a[i * n + j] = a[j * n + i] = (s / 2147483647) * 2 - 1;
    }
  }
  const { values, vectors } = symmetricEigen(a, n);
  for (let c = 0; c < n; c++) {
    if (c > 0) assert.ok(values[c] <= values[c - 1], "eigenvalues descend");
    for (let r = 0; r < n; r++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += a[r * n + k] * vectors[k * n + c];
      close(av, values[c] * vectors[r * n + c], 1e-10, `(A v - λ v)[${r}] for vector ${c}`);
    }
    for (let d = 0; d < n; d++) {
      let dot = 0;
      for (let r = 0; r < n; r++) dot += vectors[r * n + c] * vectors[r * n + d];
      close(dot, c === d ? 1 : 0, 1e-10, `v${c}·v${d}`);
    }
  }
});

test("randomized SVD recovers a rank-2 matrix exactly: singular values, orthonormal vectors, reconstruction", () => {
  // A = 5·u1·v1ᵀ + 2·u2·v2ᵀ with orthonormal u's and v's chosen by hand.
  const u1 = [0.5, 0.5, 0.5, 0.5];
  const u2 = [0.5, -0.5, 0.5, -0.5];
  const v1 = [0.6, 0.8, 0, 0, 0];
  const v2 = [0, 0, 0.6, 0, 0.8];
  const dense = u1.map((_, i) => v1.map((_, j) => 5 * u1[i] * v1[j] + 2 * u2[i] * v2[j]));
  const svd = randomizedSvd(csrFromDense(dense), { rank: 3, oversample: 2, seed: 7 });
  assert.equal(svd.rank, 2, "the third singular value is zero, so only two are kept");
  close(svd.singularValues[0], 5, 1e-10, "σ1");
  close(svd.singularValues[1], 2, 1e-10, "σ2");
  const v = (j: number, c: number) => svd.right[j * svd.rank + c];
  let dot = 0;
  for (let j = 0; j < 5; j++) dot += v(j, 0) * v(j, 1);
  close(dot, 0, 1e-10, "v1·v2");
  // Signs are fixed so each vector's largest entry is positive: v1 = (0.6, 0.8, 0, 0, 0) exactly.
  v1.forEach((x, j) => close(v(j, 0), x, 1e-10, `v1[${j}]`));
  v2.forEach((x, j) => close(v(j, 1), x, 1e-10, `v2[${j}]`));
  // A ≈ (A·V)·Vᵀ
  for (let i = 0; i < 4; i++) {
    const av = [0, 1].map((c) => dense[i].reduce((sum, x, j) => sum + x * v(j, c), 0));
    for (let j = 0; j < 5; j++) close(av[0] * v(j, 0) + av[1] * v(j, 1), dense[i][j], 1e-10, `A[${i}][${j}]`);
  }
});

test("randomized SVD singular values match the square roots of AᵀA's eigenvalues on a sparse random matrix", () => {
  let s = 3;
  const next = () => (s = (s * 48271) % 2147483647) / 2147483647;
  const dense = Array.from({ length: 30 }, () => Array.from({ length: 12 }, () => (next() < 0.3 ? next() : 0)));
  const ata = new Float64Array(12 * 12);
  for (const row of dense) for (let a = 0; a < 12; a++) for (let b = 0; b < 12; b++) ata[a * 12 + b] += row[a] * row[b];
  const reference = symmetricEigen(ata, 12).values;
  const svd = randomizedSvd(csrFromDense(dense), { rank: 4, oversample: 8, powerIterations: 2, seed: 1 });
  for (let c = 0; c < 4; c++) close(svd.singularValues[c], Math.sqrt(reference[c]), 1e-8, `σ${c + 1}`);
});

test("randomized SVD with the same seed gives byte-identical vectors", () => {
  const dense = Array.from({ length: 20 }, (_, i) =>
    Array.from({ length: 15 }, (_, j) => ((i * 7 + j * 3) % 5 === 0 ? i + j + 1 : 0)),
  );
  const a = randomizedSvd(csrFromDense(dense), { rank: 5, seed: 9 });
  const b = randomizedSvd(csrFromDense(dense), { rank: 5, seed: 9 });
  assert.deepEqual(Array.from(a.right), Array.from(b.right));
});

test("tf-idf uses sublinear tf and smoothed idf, and scales rows to unit length", () => {
  const model = fitTfidf(["cat cat dog", "dog fish", "fish fish fish"], { minDocumentFrequency: 1 });
  // idf = ln((1 + 3) / (1 + df)) + 1: cat df=1, dog df=2, fish df=2
  close(model.idf[model.vocabulary.get("cat")!], Math.log(4 / 2) + 1, 1e-12, "idf(cat)");
  close(model.idf[model.vocabulary.get("dog")!], Math.log(4 / 3) + 1, 1e-12, "idf(dog)");
  const m = tfidfMatrix(model, ["cat cat dog"]);
  const cat = (1 + Math.log(2)) * (Math.log(2) + 1);
  const dog = 1 * (Math.log(4 / 3) + 1);
  const norm = Math.hypot(cat, dog);
  const values = new Map<number, number>();
  for (let p = 0; p < m.values.length; p++) values.set(m.colIndex[p], m.values[p]);
  close(values.get(model.vocabulary.get("cat")!)!, cat / norm, 1e-12, "weight(cat)");
  close(values.get(model.vocabulary.get("dog")!)!, dog / norm, 1e-12, "weight(dog)");
});

const corpus = [
  "The cat sat on the mat and the cat purred.",
  "A kitten is a young cat; the kitten purred on the mat.",
  "Stock markets fell as bond yields rose sharply.",
  "Investors sold stock when yields on bonds rose.",
  "The recipe needs flour, sugar and butter for the cake.",
  "Bake the cake after mixing butter and sugar with flour.",
];

/** Random texts over a small vocabulary with accents, digits, repeats and empty texts. */
function randomTexts(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const words = ["Cat", "dog", "fish", "Éclair", "naïve", "42", "x9", "the", "THE", "über", "a", "b"];
  return Array.from({ length: count }, (_, i) =>
    i % 17 === 0
      ? "--"
      : Array.from({ length: 1 + Math.floor(random() * 30) }, () => words[Math.floor(random() * words.length)]).join(
          random() < 0.5 ? " " : ", ",
        ),
  );
}

test("tf-idf rows from texts counted once equal tfidfMatrix over the texts, for all rows and for a subset", () => {
  const texts = randomTexts(200, 3);
  for (const options of [{}, { minDocumentFrequency: 1 }, { maxVocabulary: 5 }]) {
    const counted = countTermsWithin(texts, Infinity).counts!;
    const fitted = fitTfidfCounts(texts, options);
    assert.deepEqual(fitted.model, fitTfidf(texts, options));
    assert.deepEqual(tfidfCountRows(fitted, counted), tfidfMatrix(fitted.model, texts));
    const rows = [0, 3, 17, 18, 199];
    assert.deepEqual(
      tfidfCountRows(fitted, counted, rows),
      tfidfMatrix(
        fitted.model,
        rows.map((i) => texts[i]),
      ),
    );
  }
});

test("lsa embeds its fitted texts, all or some beside new ones, from kept counts bit-identically to afresh", async () => {
  const texts = randomTexts(300, 9);
  for (const fitSample of [Infinity, 120]) {
    // The reference tokenizes afresh: embedding all its fitted texts once releases its kept counts.
    const reference = fitLsa(texts, { dimensions: 8, fitSample });
    const own = await reference.embed(texts.slice());
    const mixed = ["cat naïve", texts[3], texts[250], "--", texts[3], "unseen words only"];
    const fresh = await reference.embed(mixed);
    const lsa = fitLsa(texts, { dimensions: 8, fitSample });
    assert.deepEqual(await lsa.embed(mixed), fresh, "some fitted texts beside new ones");
    assert.deepEqual(await lsa.embed(["no fitted text here"]), await reference.embed(["no fitted text here"]));
    assert.deepEqual(await lsa.embed(texts), own, "all the fitted texts");
    assert.deepEqual(await lsa.embed(mixed), fresh, "after the kept counts are released");
    assert.deepEqual(await reference.embed(texts), own);
  }
});

test("past the kept-counts cap, lsa counts document frequencies only and fits the same model, id and vectors", async () => {
  const texts = randomTexts(300, 11);
  const counted = countTermsWithin(texts, Infinity).counts!;
  for (const options of [{}, { minDocumentFrequency: 1 }, { maxVocabulary: 5 }]) {
    const within = countTermsWithin(texts, 10);
    assert.equal(within.counts, undefined, "over the cap: no per-text counts");
    assert.equal(within.entries, counted.ids.length);
    const whole = fitTfidfCounts(texts, options);
    assert.deepEqual(fitTfidfFrequencies(within, options), whole);
    assert.deepEqual(countTermsWithin(texts, counted.ids.length).counts, counted, "at the cap: kept");
  }
  for (const fitSample of [Infinity, 120]) {
    const kept = fitLsa(texts, { dimensions: 8, fitSample });
    const capped = fitLsa(texts, { dimensions: 8, fitSample, keptCounts: 50 });
    assert.equal(capped.id, kept.id);
    assert.equal(capped.name, kept.name);
    const some = [texts[0], "cat naïve", texts[299]];
    assert.deepEqual(await capped.embed(some), await kept.embed(some));
    assert.deepEqual(await capped.embed(texts), await kept.embed(texts));
  }
});

test("lsa embeds a query closest to the texts that share its topic, and names itself honestly", async () => {
  const lsa = fitLsa(corpus, { dimensions: 3, minDocumentFrequency: 1 });
  assert.match(lsa.name, /^lsa-3 \(TF-IDF\+SVD fitted on this corpus; not a neural model\)$/);
  assert.equal(lsa.dimensions, 3);
  const [query, ...docs] = await lsa.embed(["kitten purred on the mat", ...corpus]);
  const scores = docs.map((d) => cosine(query, d));
  const best = scores.indexOf(Math.max(...scores));
  assert.ok(best === 0 || best === 1, `closest text should be about cats, got ${best} (${scores.join(", ")})`);
  close(Math.hypot(...query), 1, 1e-6, "vectors are unit length");
  assert.equal(lsa.inputs.embedded, 7);
});

test("lsa is deterministic and its identity changes with the fitted corpus", async () => {
  const a = fitLsa(corpus, { dimensions: 2 });
  const b = fitLsa(corpus, { dimensions: 2 });
  assert.deepEqual(Array.from((await a.embed(["bond yields"]))[0]), Array.from((await b.embed(["bond yields"]))[0]));
  assert.equal(a.id, b.id);
  assert.notEqual(fitLsa(corpus.slice(1), { dimensions: 2 }).id, a.id);
});

test("lsa says when the corpus allows fewer dimensions than requested", () => {
  const lsa = fitLsa(corpus, { dimensions: 50, minDocumentFrequency: 1 });
  assert.ok(lsa.dimensions <= 6);
  assert.match(lsa.name, new RegExp(`50 requested, corpus rank allows ${lsa.dimensions}`));
});

test("lsa refuses an empty corpus with a SeamlabError", () => {
  assert.throws(() => fitLsa([]), SeamlabError);
  assert.throws(() => fitLsa(["...", "!!"]), /no words/);
});

test("lsa fitted on a seeded sample keeps topics apart for every text, names its sample, and is deterministic", async () => {
  // Four topics with disjoint vocabularies, 60 texts each; the basis sees 40 of the 240 texts.
  const topics = [
    "whale harpoon ship sea captain sail deck",
    "kernel thread mutex scheduler interrupt stack",
    "flour oven yeast dough bake crust butter",
    "violin tempo chord melody rhythm concert",
  ].map((words) => words.split(" "));
  const random = seededRandom(3);
  const texts: string[] = [];
  const topicOf: number[] = [];
  for (let i = 0; i < 240; i++) {
    const words = topics[i % 4];
    texts.push(Array.from({ length: 8 }, () => words[Math.floor(random() * words.length)]).join(" "));
    topicOf.push(i % 4);
  }
  const sampled = fitLsa(texts, { dimensions: 8, fitSample: 40 });
  const full = fitLsa(texts, { dimensions: 8, fitSample: Infinity });
  assert.match(sampled.name, /sample of 40 of 240 texts/);
  assert.doesNotMatch(full.name, /sample/);
  assert.notEqual(sampled.id, full.id, "the sample is part of the embedder's identity");
  const vectors = await sampled.embed(texts);
  const fullVectors = await full.embed(texts);
  // Every text is nearer (cosine) to a text of its own topic than to any other topic's: the sampled basis spans all
  // four topics, though it saw only 40 texts. And same-topic similarity is about what the full fit gives.
  let sameSampled = 0;
  let sameFull = 0;
  for (let i = 0; i < texts.length; i++) {
    const j = (i + 4) % texts.length;
    const same = cosine(vectors[i], vectors[j]);
    sameSampled += same / texts.length;
    sameFull += cosine(fullVectors[i], fullVectors[j]) / texts.length;
    for (let other = 1; other < 4; other++) {
      const different = cosine(vectors[i], vectors[(i + other) % texts.length]);
      assert.ok(same > different + 0.1, `text ${i} (topic ${topicOf[i]}): ${same} vs ${different}`);
    }
  }
  assert.ok(Math.abs(sameSampled - sameFull) < 0.05, `mean same-topic cosine ${sameSampled} vs full fit ${sameFull}`);
  const again = await fitLsa(texts, { dimensions: 8, fitSample: 40 }).embed(texts);
  assert.deepEqual(again, vectors, "same seed and sample size: identical vectors");
  assert.throws(() => fitLsa(texts, { fitSample: 0 }), SeamlabError);
  assert.throws(() => fitLsa(texts, { fitSample: 2.5 }), /fitSample/);
});

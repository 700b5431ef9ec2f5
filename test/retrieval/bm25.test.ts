import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { createBm25Retriever, scoreAllBm25, searchBm25, searchBm25Exhaustive } from "../../src/retrieval/bm25";
import { FREQUENCY_ESCAPE, buildBm25Index, queryVocabulary } from "../../src/retrieval/bm25-index";
import { bm25IndexReuses } from "../../src/retrieval/bm25-memo";
import { tokenize } from "../../src/retrieval/tokenize";
import { seededRandom } from "../../src/core/random";
import { bm25ArrayFields } from "../helpers/bm25-fields";

// better-sqlite3 ships no type declarations (and @types/better-sqlite3 is not installed): type what we use.
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
interface SqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string) => SqliteDatabase;

const texts = [
  "The collector receives traces and exports them to a backend.",
  "Traces, metrics and logs are the three signals.",
  "Configure the exporter endpoint for traces traces traces.",
  "A span is a unit of work inside a trace.",
  "Metrics are aggregated by the SDK before export.",
  "The collector can batch, retry and export data.",
  "Logs correlate with traces through the trace id.",
  "Nothing relevant here at all.",
  "Metrics are aggregated by the SDK before export.", // exact duplicate of 4: must tie and rank after it
];
const queries = ["collector traces", "metrics export", "trace id logs", "export export traces", "unknownword", "the"];

/** BM25 straight from the formula, one document at a time, no postings. */
function referenceScores(
  corpus: string[],
  query: string,
  k1: number,
  b: number,
  idfKind: "lucene" | "robertson",
): number[] {
  const docs = corpus.map((t) => tokenize(t));
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.length, 0) / n;
  return docs.map((doc) => {
    let score = 0;
    for (const term of tokenize(query)) {
      const df = docs.filter((d) => d.includes(term)).length;
      if (df === 0) continue;
      let idf =
        idfKind === "lucene" ? Math.log(1 + (n - df + 0.5) / (df + 0.5)) : Math.log((n - df + 0.5) / (df + 0.5));
      if (idfKind === "robertson" && idf <= 0) idf = 1e-6;
      const tf = doc.filter((t) => t === term).length;
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgdl));
    }
    return score;
  });
}

test("bm25 scores equal a brute-force reference written from the formula", () => {
  for (const [k1, b] of [
    [1.2, 0.75],
    [2, 0.3],
    [0.5, 1],
  ]) {
    const index = buildBm25Index(texts, { k1, b });
    for (const q of queries) {
      const expected = referenceScores(texts, q, k1, b, "lucene");
      const actual = Array.from(scoreAllBm25(index, q));
      actual.forEach((value, i) =>
        assert.ok(Math.abs(value - expected[i]) < 1e-12, `${q} doc ${i}: ${value} vs ${expected[i]}`),
      );
    }
  }
});

test("bm25 search returns the top k by score, ties broken by the lower chunk index", () => {
  const index = buildBm25Index(texts);
  const ranked = searchBm25(index, "metrics export", 3);
  const scores = scoreAllBm25(index, "metrics export");
  const order = [...scores.keys()].filter((i) => scores[i] > 0).sort((a, b) => scores[b] - scores[a] || a - b);
  assert.deepEqual(
    ranked.map((r) => r.index),
    order.slice(0, 3),
  );
  // docs 4 and 8 are identical, so they tie; 4 must come first
  assert.equal(ranked[0].score, ranked[1].score);
  assert.deepEqual(
    ranked.slice(0, 2).map((r) => r.index),
    [4, 8],
  );
});

test("bm25 search returns fewer than k when few chunks match, and nothing for unknown words or k = 0", () => {
  const index = buildBm25Index(texts);
  assert.equal(searchBm25(index, "unknownword", 5).length, 0);
  assert.equal(searchBm25(index, "span", 5).length, 1);
  assert.equal(searchBm25(index, "traces", 0).length, 0);
  // the scratch buffer is cleared between searches: the same query twice gives the same scores
  const retriever = createBm25Retriever(texts);
  assert.deepEqual(retriever.search("collector traces", 4), retriever.search("collector traces", 4));
});

test("bm25 with the robertson idf equals SQLite FTS5 bm25(), negated, and ranks the same", () => {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'unicode61 remove_diacritics 0')");
  const insert = db.prepare("INSERT INTO docs(rowid, body) VALUES (?, ?)");
  texts.forEach((t, i) => insert.run(i + 1, t));
  const index = buildBm25Index(texts, { idf: "robertson" });
  for (const q of queries.filter((q) => q !== "unknownword")) {
    const match = tokenize(q)
      .map((t) => `"${t}"`)
      .join(" OR ");
    const rows = db
      .prepare("SELECT rowid, bm25(docs) AS score FROM docs WHERE docs MATCH ? ORDER BY score, rowid")
      .all(match) as { rowid: number; score: number }[];
    const ours = scoreAllBm25(index, q);
    for (const row of rows) {
      assert.ok(
        Math.abs(-row.score - ours[row.rowid - 1]) < 1e-9,
        `${q} row ${row.rowid}: ${-row.score} vs ${ours[row.rowid - 1]}`,
      );
    }
    assert.deepEqual(
      searchBm25(index, q, texts.length).map((r) => r.index),
      rows.map((r) => r.rowid - 1),
      `ranking for "${q}"`,
    );
  }
  db.close();
});

test("bm25 rejects a negative k1 and a b outside [0, 1]", () => {
  assert.throws(() => buildBm25Index(texts, { k1: -1 }), /k1/);
  assert.throws(() => buildBm25Index(texts, { b: 1.5 }), /b must be/);
});

test("configs whose chunks are identical share one BM25 index; other texts or settings build their own", () => {
  const texts = ["the whale surfaced", "a ship in the harbour", "whale oil and rope"];
  const before = bm25IndexReuses();
  const first = createBm25Retriever(texts);
  const again = createBm25Retriever(texts.map((t) => ({ doc: "d", start: 0, end: t.length, text: t })));
  assert.equal(again.index, first.index, "identical texts reuse the built index");
  assert.equal(bm25IndexReuses(), before + 1);
  assert.notEqual(createBm25Retriever([...texts, "one more"]).index, first.index, "other texts");
  assert.notEqual(createBm25Retriever(texts, { k1: 0.9 }).index, first.index, "other k1");
  assert.notEqual(createBm25Retriever(texts, { stem: true }).index, first.index, "stemming");
  // The shared index ranks exactly as a freshly built one.
  assert.deepEqual(again.search("whale", 3), searchBm25(buildBm25Index(texts), "whale", 3));
});

test("an index built for known queries ranks them exactly as the full index, with fewer postings", () => {
  // A seeded corpus with repeated and rare words, so document frequencies, lengths and ties all vary.
  let state = 7;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);
  const corpus = Array.from({ length: 400 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 40) }, () => words[Math.floor(random() * random() * 300)]).join(" "),
  );
  const asked = ["w0 w1 w0", "w5 wz w2", "w10 nowhere", "w1", "W3, w4! w4"];
  for (const options of [{}, { k1: 2, b: 0.3 }, { idf: "robertson" as const }, { stem: true }]) {
    const full = buildBm25Index(corpus, options);
    const scoped = buildBm25Index(corpus, options, { vocabulary: queryVocabulary(asked, options) });
    assert.ok(scoped.postingTextLow.length < full.postingTextLow.length / 5, "postings of the asked terms only");
    assert.equal(scoped.averageLength, full.averageLength);
    for (const q of asked) {
      assert.deepEqual(Array.from(scoreAllBm25(scoped, q)), Array.from(scoreAllBm25(full, q)), q);
      assert.deepEqual(searchBm25(scoped, q, 10), searchBm25(full, q, 10), q);
    }
  }
});

test("an index built for known queries refuses a query with another term, and is not shared with a full one", () => {
  const texts = ["the whale surfaced", "a ship in the harbour", "whale oil and rope"];
  const scoped = createBm25Retriever(texts, {}, ["whale ship"]);
  assert.deepEqual(scoped.search("ship whale", 2), createBm25Retriever(texts).search("ship whale", 2));
  assert.throws(() => scoped.search("rope", 2), /outside the vocabulary/);
  assert.notEqual(createBm25Retriever(texts).index, scoped.index);
  assert.equal(createBm25Retriever(texts, {}, ["ship", "whale"]).index, scoped.index, "same vocabulary, same index");
});

test("the term ids kept between the build's passes change nothing: a capped build equals the default one", () => {
  let state = 11;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = Array.from({ length: 120 }, (_, i) => `t${i.toString(36)}`);
  const corpus = Array.from({ length: 300 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 30) }, () => words[Math.floor(random() * random() * 120)]).join(" "),
  );
  const asked = ["t0 t1", "t2 t3 t3", "t9"];
  for (const scope of [{}, { vocabulary: queryVocabulary(asked) }]) {
    const whole = buildBm25Index(corpus, {}, scope);
    // 0: every text tokenized twice; 50: the first few recorded, the rest tokenized again; 1e9: all recorded.
    for (const recordedIdsCap of [0, 50, 1e9]) {
      const capped = buildBm25Index(corpus, {}, { ...scope, recordedIdsCap });
      for (const field of bm25ArrayFields)
        assert.deepEqual(Array.from(capped[field]), Array.from(whole[field]), `${field} at cap ${recordedIdsCap}`);
      assert.deepEqual([...capped.termIds], [...whole.termIds]);
    }
  }
});

test("pruned search (MaxScore) returns exactly the exhaustive top k: same texts, scores and tie order", () => {
  // Skewed word frequencies (common and rare terms), duplicate texts (exact ties), repeated query terms, and
  // settings where bounds are loose (b = 0), flat (k1 = 0) or tiny (robertson idf floored at 1e-6).
  let state = 3;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
  const pick = () => words[Math.floor(random() * random() * random() * words.length)];
  const corpus = Array.from({ length: 700 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 50) }, pick).join(" "),
  );
  for (let i = 0; i < 40; i++) corpus[650 + i] = corpus[i * 7];
  const asked = Array.from({ length: 150 }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, pick).join(" "));
  asked.push("w0 w0 w1", "w1 w0 w1 w0", "w59 w58", "w0 nowhere w3");
  let pruned = 0;
  for (const options of [{}, { b: 0 }, { k1: 0 }, { idf: "robertson" as const }, { k1: 2.5, b: 1 }]) {
    for (const scope of [{}, { vocabulary: queryVocabulary(asked, options) }]) {
      const index = buildBm25Index(corpus, options, scope);
      for (const query of asked) {
        for (const k of [1, 3, 5, 20]) {
          const expected = searchBm25Exhaustive(index, query, k);
          assert.deepEqual(searchBm25(index, query, k), expected, `${query} @${k} ${JSON.stringify(options)}`);
          if (new Set(tokenize(query)).size >= 2) pruned++;
        }
      }
    }
  }
  assert.ok(pruned > 1000, `pruned path taken ${pruned} times`);
});

test("term frequencies take one byte in every index, the rare ones from 255 up exact in an overflow map", () => {
  // One array type whatever the chunks' length: V8 deoptimises the build and search loops when it changes.
  const short = buildBm25Index([Array(254).fill("cat").join(" "), "cat dog"]);
  assert.ok(short.postingFrequency instanceof Uint8Array);
  assert.deepEqual(Array.from(short.postingFrequency), [254, 1, 1]);
  assert.equal(short.frequencyOverflow.size, 0);
  const long = buildBm25Index([Array(256).fill("cat").join(" "), "cat dog", Array(70_000).fill("dog").join(" ")]);
  assert.ok(long.postingFrequency instanceof Uint8Array);
  assert.deepEqual(Array.from(long.postingFrequency), [FREQUENCY_ESCAPE, 1, 1, FREQUENCY_ESCAPE]);
  assert.deepEqual(
    [...long.frequencyOverflow],
    [
      [0, 256],
      [3, 70_000],
    ],
  );
  const edge = buildBm25Index([Array(255).fill("cat").join(" "), "cat dog"]);
  assert.deepEqual(Array.from(edge.postingFrequency), [FREQUENCY_ESCAPE, 1, 1]);
  assert.deepEqual([...edge.frequencyOverflow], [[0, 255]]);
  // Scores read the exact frequencies: the same as an index whose texts all stay under the escape, scaled.
  const texts = [Array(300).fill("cat").join(" "), Array(120).fill("cat").join(" ") + " dog", "cat dog dog"];
  const index = buildBm25Index(texts);
  const scores = scoreAllBm25(index, "cat");
  const tf = [300, 120, 1];
  const lengths = [300, 121, 3];
  const average = lengths.reduce((a, b) => a + b, 0) / 3;
  const idf = Math.log(1 + (3 - 3 + 0.5) / (3 + 0.5));
  tf.forEach((f, i) => {
    const norm = 1.2 * (1 - 0.75 + (0.75 * lengths[i]) / average);
    assert.ok(Math.abs(scores[i] - (idf * f * 2.2) / (f + norm)) < 1e-12, `text ${i}`);
  });
  assert.deepEqual(
    searchBm25(index, "cat dog", 3).map((r) => r.index),
    searchBm25Exhaustive(index, "cat dog", 3).map((r) => r.index),
  );
});

test("an index of more than 65,536 texts (postings keep 16 bits of the text id per block) scores and ranks every text right", () => {
  // 200,000 texts over 3 blocks of 65,536: common terms in every block, rare ones in some blocks only (a search
  // gallops over whole blocks), one term only in the last text
  const random = seededRandom(14);
  const words = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"];
  const texts: string[] = [];
  for (let i = 0; i < 200_000; i++) {
    const n = 1 + Math.floor(random() * 6);
    const parts = Array.from({ length: n }, () => words[Math.floor(random() * random() * words.length)]);
    if (i % 9_973 === 0) parts.push("rare");
    if (i >= 131_072 && i % 5_003 === 0) parts.push("late");
    if (i === 199_999) parts.push("last");
    texts.push(parts.join(" "));
  }
  const index = buildBm25Index(texts, {}, { vocabulary: queryVocabulary(["alpha beta rare late last theta"]) });
  assert.equal(index.textBlocks, 4);
  // BM25 by hand from each text's own counts (Lucene idf), for texts across the blocks
  const lengths = texts.map((text) => text.split(" ").length);
  const average = lengths.reduce((a, b) => a + b, 0) / texts.length;
  const df = (term: string) => texts.filter((text) => text.split(" ").includes(term)).length;
  const byHand = (query: string, i: number) =>
    query.split(" ").reduce((sum, term) => {
      const tf = texts[i].split(" ").filter((w) => w === term).length;
      if (tf === 0) return sum;
      const idf = Math.log(1 + (texts.length - df(term) + 0.5) / (df(term) + 0.5));
      return sum + (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * lengths[i]) / average));
    }, 0);
  for (const query of ["rare late", "last alpha", "theta rare beta"]) {
    const scores = scoreAllBm25(index, query);
    for (const i of [0, 9_973, 65_535, 65_536, 69_798, 131_072, 135_065, 199_999, 199_998])
      assert.ok(Math.abs(scores[i] - byHand(query, i)) < 1e-9, `${query}: text ${i}`);
    for (const k of [1, 5, 40]) {
      const exhaustive = searchBm25Exhaustive(index, query, k);
      assert.deepEqual(searchBm25(index, query, k), exhaustive, `${query} k=${k}`);
      const expected = [...scores.keys()]
        .filter((i) => scores[i] > 0)
        .sort((a, b) => scores[b] - scores[a] || a - b)
        .slice(0, k);
      assert.deepEqual(
        exhaustive.map((r) => r.index),
        expected,
        `${query} k=${k}`,
      );
    }
  }
  assert.deepEqual(
    searchBm25(index, "last", 3).map((r) => r.index),
    [199_999],
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { englishStopWords, tokenize } from "../../src/retrieval/tokenize";

test("tokenize lowercases and keeps runs of Unicode letters and digits", () => {
  assert.deepEqual(tokenize("OTel_Exporter v1.2 — Über-Größe, naïve 東京"), [
    "otel",
    "exporter",
    "v1",
    "2",
    "über",
    "größe",
    "naïve",
    "東京",
  ]);
  assert.deepEqual(tokenize("  ...  "), []);
});

test("tokenize drops stop words before Porter stemming", () => {
  assert.deepEqual(tokenize("How are the collectors running?", { stopWords: englishStopWords, stem: true }), [
    "collector",
    "run",
  ]);
  assert.deepEqual(tokenize("connections connected", { stem: true }), ["connect", "connect"]);
});

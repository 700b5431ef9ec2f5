// A split read back from the result cache must be the split the splitter makes, and an entry that is not a split of
// these documents must be recomputed, never trusted.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Doc } from "../../src/core/types";
import { openCache, type ResultCache } from "../../src/experiment/cache";
import { splitCorpusCached } from "../../src/experiment/split-cache";
import { splitCorpus } from "../../src/splitters/registry";
import { libraryTable } from "../../src/study/libraries";

const docs: Doc[] = [
  { id: "a", text: "First paragraph of a.\n\nSecond paragraph, a little longer than the first one.\n\nThird." },
  { id: "b", text: "One line.\nAnother line that runs on for a while so the splitter has to cut it somewhere." },
];
const config = { splitter: "recursive", size: 40, overlap: 10 };

/** An in-memory cache that records what was asked of it. */
function memoryCache(): ResultCache & { entries: Map<string, unknown>; puts: number } {
  const entries = new Map<string, unknown>();
  const cache = { dir: "", rejected: 0, entries, puts: 0, get: (key: string) => entries.get(key) };
  return Object.assign(cache, {
    put(key: string, value: unknown) {
      cache.puts++;
      entries.set(key, JSON.parse(JSON.stringify(value)));
    },
  });
}

test("a cached split is the splitter's split, stored once as spans and read back on the next call", () => {
  const cache = memoryCache();
  const expected = splitCorpus(docs, config);
  assert.deepEqual(splitCorpusCached(docs, config, cache), expected);
  assert.equal(cache.puts, 1);
  const [stored] = [...cache.entries.values()] as [number, number, number, string?][][];
  assert.equal(stored.length, expected.length);
  assert.ok(
    stored.every((chunk) => chunk.length === 3),
    "chunks equal to their source text store no text",
  );
  assert.deepEqual(splitCorpusCached(docs, config, cache), expected);
  assert.equal(cache.puts, 1, "the second call reads the entry");
});

test("another corpus text or config is another entry", () => {
  const cache = memoryCache();
  splitCorpusCached(docs, config, cache);
  splitCorpusCached(docs, { ...config, overlap: 5 }, cache);
  splitCorpusCached([{ ...docs[0], text: docs[0].text + " More." }, docs[1]], config, cache);
  assert.equal(cache.entries.size, 3);
});

test("an entry that is not a split of these documents is recomputed and replaced", () => {
  const cache = memoryCache();
  const expected = splitCorpus(docs, config);
  splitCorpusCached(docs, config, cache);
  const [[key, good]] = [...cache.entries.entries()];
  for (const bad of [[[0, 0, 9999]], [[7, 0, 3]], [[0, 5, 2]], "chunks", [[0, 0, 3, 42]]]) {
    cache.entries.set(key, bad);
    assert.deepEqual(splitCorpusCached(docs, config, cache), expected, JSON.stringify(bad));
    assert.deepEqual(cache.entries.get(key), good);
  }
  assert.equal(cache.puts, 6, "each bad entry was replaced");
});

test("a library table read from a warm cache has the rows it had when computed", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-split-cache-"));
  try {
    const setting = { unit: "chars" as const, size: 200, overlap: 40, splitters: ["langchain", "mastra-sentence"] };
    const long = docs.map((doc) => ({ ...doc, text: Array.from({ length: 12 }, () => doc.text).join("\n\n") }));
    const cold = await libraryTable(long, { ...setting, cache: openCache(dir) });
    const entries = (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(".json"));
    assert.equal(entries.length, 2, "one split per splitter (no queries, so no retrieval split)");
    const warm = await libraryTable(long, { ...setting, cache: openCache(dir) });
    assert.deepEqual(warm, cold);
    assert.deepEqual(await libraryTable(long, { ...setting, cache: null }), cold);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Embedder, emptyInputReport } from "../../src/embed/types";
import { withVectorCache } from "../../src/embed/vector-cache";

const scratch = mkdtempSync(join(tmpdir(), "seamlab-vectors-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A fake embedder that records what it was asked: vector = [length, first char code, 0.5]. */
function countingEmbedder(id: string): Embedder & { asked: string[] } {
  const asked: string[] = [];
  return {
    name: "fake",
    id,
    dimensions: 3,
    maxInputTokens: Infinity,
    inputs: emptyInputReport(),
    asked,
    async embed(texts) {
      asked.push(...texts);
      return texts.map((t) => Float32Array.from([t.length, t.charCodeAt(0) || 0, 0.5]));
    },
  };
}

test("the cache embeds only texts it has not seen, across instances, and returns identical vectors", async () => {
  const dir = join(scratch, "a");
  const first = countingEmbedder("fake-1");
  const cachedFirst = withVectorCache(first, dir);
  const a = await cachedFirst.embed(["alpha", "beta", "alpha"]);
  assert.deepEqual(first.asked, ["alpha", "beta"], "a repeated text is embedded once");
  const second = countingEmbedder("fake-1");
  const cachedSecond = withVectorCache(second, dir);
  const b = await cachedSecond.embed(["beta", "gamma", "alpha"]);
  assert.deepEqual(second.asked, ["gamma"], "a new process re-embeds only the new text");
  assert.deepEqual(Array.from(b[0]), Array.from(a[1]));
  assert.deepEqual(Array.from(b[2]), Array.from(a[0]));
  assert.deepEqual(cachedSecond.cache, { hits: 2, misses: 1, dir: cachedSecond.cache.dir });
  assert.ok(
    readdirSync(cachedSecond.cache.dir).every((n) => !n.endsWith(".seamlab-tmp")),
    "no temp files left behind",
  );
});

test("a different embedder identity never sees another's vectors", async () => {
  const dir = join(scratch, "b");
  await withVectorCache(countingEmbedder("model-x"), dir).embed(["alpha"]);
  const other = countingEmbedder("model-y");
  await withVectorCache(other, dir).embed(["alpha"]);
  assert.deepEqual(other.asked, ["alpha"]);
});

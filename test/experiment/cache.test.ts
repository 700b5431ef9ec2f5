import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { canonicalJson } from "../../src/core/canonical-json";
import { cacheKey, clearCache, hashDocs, hashQueries, openCache } from "../../src/experiment/cache";

const tempDir = () => mkdtempSync(join(tmpdir(), "seamlab-cache-test-"));

test("canonical JSON sorts keys so field order does not change a cache key", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } }),
    '{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}',
  );
  const a = cacheKey({ corpusHash: "c", queriesHash: "q", config: { size: 1, overlap: 0 }, version: "1" });
  const b = cacheKey({ version: "1", config: { overlap: 0, size: 1 }, queriesHash: "q", corpusHash: "c" });
  assert.equal(a, b);
  assert.notEqual(a, cacheKey({ corpusHash: "c", queriesHash: "q", config: { size: 1, overlap: 0 }, version: "2" }));
});

test("corpus hash changes when any document's text or id changes, and query hash when a gold span moves", () => {
  const docs = [
    { id: "a.md", text: "hello" },
    { id: "b.md", text: "world" },
  ];
  assert.notEqual(
    hashDocs(docs),
    hashDocs([
      { id: "a.md", text: "hello" },
      { id: "b.md", text: "world!" },
    ]),
  );
  assert.notEqual(
    hashDocs(docs),
    hashDocs([
      { id: "a.md", text: "hellow" },
      { id: "b.md", text: "orld" },
    ]),
  );
  assert.equal(hashDocs(docs), hashDocs(docs.map((d) => ({ ...d }))));
  const q = [{ id: "1", text: "q", gold: [{ doc: "a.md", start: 0, end: 3 }] }];
  assert.notEqual(hashQueries(q), hashQueries([{ id: "1", text: "q", gold: [{ doc: "a.md", start: 0, end: 4 }] }]));
});

test("a cache returns what was put, nothing for an unknown key, and leaves no temp files", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  const key = cacheKey({ corpusHash: "c", queriesHash: "q", config: {}, version: "0" });
  assert.equal(cache.get(key), undefined);
  cache.put(key, { recall: 0.5, rows: [1, 2] });
  assert.deepEqual(cache.get(key), { recall: 0.5, rows: [1, 2] });
  const shard = readdirSync(dir)[0];
  assert.deepEqual(readdirSync(join(dir, shard)), [`${key}.json`]);
});

test("a corrupt or truncated entry reads as missing and is overwritten by the next put", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  const key = "ab" + "0".repeat(62);
  cache.put(key, { ok: true });
  const file = join(dir, "ab", `${key}.json`);
  writeFileSync(file, '{"key":"' + key + '","value":{"ok":tr');
  assert.equal(cache.get(key), undefined);
  writeFileSync(file, JSON.stringify({ key: "another", value: 1 }));
  assert.equal(cache.get(key), undefined, "an entry stored under another key is not trusted");
  cache.put(key, { ok: 2 });
  assert.deepEqual(cache.get(key), { ok: 2 });
});

test("clearCache removes every entry and reports how many", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  cache.put("aa1", 1);
  cache.put("bb2", 2);
  writeFileSync(join(dir, "aa", `.aa1.json.${2 ** 22 + 123}.0-0.seamlab-tmp`), "partial"); // a dead writer's
  assert.equal(clearCache(dir), 2);
  assert.equal(existsSync(dir), false);
  assert.equal(clearCache(dir), 0);
  assert.equal(openCache(dir).get("aa1"), undefined);
});

test("clearCache touches only the files a cache writes", () => {
  const dir = tempDir();
  openCache(dir).put("cc3", 3);
  writeFileSync(join(dir, "notes.txt"), "mine");
  writeFileSync(join(dir, "cc", "keep.md"), "mine too");
  assert.equal(clearCache(dir), 1);
  assert.deepEqual(readdirSync(dir).sort(), ["cc", "notes.txt"]);
  assert.deepEqual(readdirSync(join(dir, "cc")), ["keep.md"]);
});

test("clearCache deletes only entries proven the cache's own by key and checksum, never a user's files of the same shape", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  cache.put("10" + "a".repeat(62), { ours: true });
  cache.put("12" + "b".repeat(62), { edited: 1 });
  // A user's dated notes in a folder that looks like shards (the D/10/05.json and D/12/31.json).
  writeFileSync(join(dir, "10", "05.json"), '{"note":"mine"}');
  writeFileSync(join(dir, "12", "31.json"), '{"note":"mine too"}');
  // A file named like an entry of another shard, and an entry edited after the cache wrote it.
  writeFileSync(join(dir, "10", `${"c".repeat(64)}.json`), "{}");
  const edited = join(dir, "12", `12${"b".repeat(62)}.json`);
  writeFileSync(edited, readFileSync(edited, "utf8").replace('"edited":1', '"edited":2'));
  const live = join(dir, "10", `.10${"d".repeat(62)}.json.${process.pid}.0-0.seamlab-tmp`);
  writeFileSync(live, "being written");
  assert.equal(clearCache(dir), 1, "only the one entry proven ours");
  assert.equal(readFileSync(join(dir, "10", "05.json"), "utf8"), '{"note":"mine"}');
  assert.equal(readFileSync(join(dir, "12", "31.json"), "utf8"), '{"note":"mine too"}');
  assert.ok(existsSync(join(dir, "10", `${"c".repeat(64)}.json`)));
  assert.match(readFileSync(edited, "utf8"), /"edited":2/);
  assert.ok(existsSync(live), "a live writer's temp file is left to it");
});

test("a null cache directory stores nothing", () => {
  const cache = openCache(null);
  cache.put("k", 1);
  assert.equal(cache.get("k"), undefined);
});

test("an entry whose body no longer matches its checksum is rejected and counted, then recomputed", () => {
  const dir = tempDir();
  const cache = openCache(dir);
  cache.put("ab12", { recall: 0.5 });
  const file = join(dir, "ab", "ab12.json");
  writeFileSync(file, readFileSync(file, "utf8").replace("0.5", "0.9"));
  assert.equal(cache.get("ab12"), undefined, "an edited entry is not used");
  assert.equal(cache.rejected, 1);
  cache.put("ab12", { recall: 0.5 });
  assert.deepEqual(cache.get("ab12"), { recall: 0.5 });
  assert.equal(cache.rejected, 1);
});

test("a temp file left by a writer that died is reclaimed by the next write to its folder", () => {
  const dir = tempDir();
  openCache(dir).put("cd34", 1);
  const stale = join(dir, "cd", `.cd34.json.${2 ** 22 + 99}.0-0.seamlab-tmp`);
  writeFileSync(stale, "half");
  openCache(dir).put("cd56", 2);
  assert.equal(existsSync(stale), false);
});

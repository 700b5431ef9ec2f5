import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { processAlive, removeStaleTempFiles, writeFileAtomic } from "../core/atomic-write";
import { canonicalJson } from "../core/canonical-json";
import type { Doc, Query } from "../core/types";
import { projectRoot } from "../core/project";

// A disk cache of experiment rows. A key hashes everything a row depends on, so an entry is never stale. Each entry
// carries its key and its body's sha256: one unreadable, misfiled or failing its checksum is recomputed, counted.

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Content hash of a corpus: ids, texts and order (chunk order follows doc order). */
export function hashDocs(docs: readonly Doc[]): string {
  const hash = createHash("sha256");
  for (const doc of docs) {
    hash.update(`${doc.id.length}:${doc.id}\n${doc.text.length}:`);
    hash.update(doc.text);
    hash.update("\n");
  }
  return hash.digest("hex");
}

/** Content hash of a query set (ids, texts, gold spans). */
export function hashQueries(queries: readonly Query[]): string {
  return sha256(canonicalJson(queries.map((q) => ({ id: q.id, text: q.text, gold: q.gold }))));
}

export function cacheKey(parts: { corpusHash: string; queriesHash: string; config: unknown; version: string }): string {
  return sha256(canonicalJson(parts));
}

/** `.seamlab-cache/` in the project root (git-ignored). */
export function defaultCacheDir(): string {
  return join(projectRoot(), ".seamlab-cache");
}

function entryPath(dir: string, key: string): string {
  return join(dir, key.slice(0, 2), `${key}.json`);
}

export interface ResultCache {
  dir: string;
  /** Undefined when missing or rejected. */
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  /** Entries found but not used since the cache was opened. */
  readonly rejected: number;
}

let rejectedInProcess = 0;

/** Cache entries rejected by any cache in this process. */
export function rejectedCacheEntries(): number {
  return rejectedInProcess;
}

/** A caller's cache option: undefined is the project's result cache, null a cache that stores nothing. */
export function cacheOrDefault(cache: ResultCache | null | undefined): ResultCache {
  return cache === undefined ? openCache() : (cache ?? openCache(null));
}

/** A cache in `dir` (created on first write); `null`: a cache that stores nothing. */
export function openCache(dir: string | null = defaultCacheDir()): ResultCache {
  if (dir === null) return { dir: "", get: () => undefined, put: () => undefined, rejected: 0 };
  let rejected = 0;
  const swept = new Set<string>(); // shard folders whose dead writers' temp files were reclaimed this process
  const reject = (): undefined => {
    rejected++;
    rejectedInProcess++;
    return undefined;
  };
  return {
    dir,
    get rejected() {
      return rejected;
    },
    get(key) {
      const text = readText(entryPath(dir, key));
      if (text === undefined) return undefined;
      const value = ownValue(text, key);
      return value === undefined ? reject() : value;
    },
    put(key, value) {
      const file = entryPath(dir, key);
      const shard = join(dir, key.slice(0, 2));
      mkdirSync(shard, { recursive: true });
      if (!swept.has(shard)) {
        swept.add(shard);
        removeStaleTempFiles(shard);
      }
      const body = JSON.stringify(value);
      writeFileAtomic(file, `{"key":${JSON.stringify(key)},"sha256":"${sha256(body)}","value":${body}}`, {
        diskFullAdvice: `point --cache-dir at another disk, run with --no-cache, or remove old results in ${dir}`,
      });
    },
  };
}

/**
 * The value of an entry this cache wrote under `key` (it names that key and its body matches its checksum: the one
 * proof that a file in a cache folder is seamlab's), else undefined.
 */
function ownValue(text: string, key: string): unknown {
  try {
    const entry = JSON.parse(text) as { key?: unknown; sha256?: unknown; value?: unknown } | null;
    if (!entry || entry.key !== key || entry.value === undefined || typeof entry.sha256 !== "string") return undefined;
    return sha256(JSON.stringify(entry.value)) === entry.sha256 ? entry.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Deletes every entry this cache wrote under `dir` (proven its own: in the shard its key starts with, see
 * `ownValue`), and the temp files of dead writers; returns how many entries were removed.
 */
export function clearCache(dir: string = defaultCacheDir()): number {
  let removed = 0;
  for (const shard of namesIn(dir)) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    const shardDir = join(dir, shard);
    for (const file of namesIn(shardDir)) {
      const entry = /^([0-9a-f]+)\.json$/.exec(file);
      const temp = /^\.([0-9a-f]+)\.json\.(\d+)\.\d+-\d+\.seamlab-tmp$/.exec(file);
      const key = (entry ?? temp)?.[1];
      if (key === undefined || !key.startsWith(shard)) continue;
      if (temp && processAlive(Number(temp[2]))) continue; // being written right now
      if (entry && ownValue(readText(join(shardDir, file)) ?? "", key) === undefined) continue;
      rmSync(join(shardDir, file), { force: true });
      if (entry) removed++;
    }
    try {
      rmdirSync(shardDir);
    } catch {
      // not empty: something else lives there; leave it
    }
  }
  try {
    rmdirSync(dir);
  } catch {
    // not empty or already gone
  }
  return removed;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** The names in `dir`, sorted; none when it is not a readable folder. */
export function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

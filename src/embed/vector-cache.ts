import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { removeStaleTempFiles, writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import { Embedder } from "./types";
import { projectRoot } from "../core/project";

/**
 * Vectors on disk keyed by embedder identity + sha256 of the text, so a re-run embeds only chunks it has not seen.
 * `<dir>/<sha256(embedder.id)[:32]>/` holds `identity.txt` (the full id, checked on open so a hash collision cannot
 * mix models) and pack files, each written once, atomically, so an interrupted run leaves no torn entry.
 * Pack: "SLV1", uint32 dimensions, uint32 count, then count × (32-byte sha256, dimensions × float32), little-endian.
 */
export interface CachedEmbedder extends Embedder {
  cache: {
    hits: number;
    misses: number;
    dir: string;
    /** Packs skipped because their content no longer matches the checksum in their name (then re-embedded). */
    rejected?: number;
  };
}

const MAGIC = "SLV1";
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
/** A pack is named by the hash of its bytes, so one edited or damaged on disk is not used. */
const packName = (buffer: Buffer) => `${sha256(buffer).slice(0, 32)}.pack`;

/** Vectors saved as a pack every `saveEvery` texts, so an interrupted run loses at most one slice. */
export function withVectorCache(
  embedder: Embedder,
  dir: string = join(projectRoot(), ".seamlab-cache", "vectors"),
  { saveEvery = 2048 }: { saveEvery?: number } = {},
): CachedEmbedder {
  const folder = join(dir, sha256(embedder.id).slice(0, 32));
  const stats: CachedEmbedder["cache"] = { hits: 0, misses: 0, dir: folder };
  let stored: Map<string, Float32Array> | undefined;
  let storedDimensions = 0;

  const load = (): Map<string, Float32Array> => {
    if (stored) return stored;
    stored = new Map();
    mkdirSync(folder, { recursive: true });
    removeStaleTempFiles(folder); // packs half-written by a process that died
    const identityPath = join(folder, "identity.txt");
    if (existsSync(identityPath)) {
      const identity = readFileSync(identityPath, "utf8");
      if (identity !== embedder.id) {
        throw new SeamlabError(
          `vector cache ${folder} belongs to another embedder ("${identity}"); delete that folder.`,
        );
      }
    } else {
      writeFileAtomic(identityPath, Buffer.from(embedder.id, "utf8"));
    }
    const packs = readdirSync(folder).filter((n) => n.endsWith(".pack"));
    for (const name of packs.sort()) {
      const buffer = readFileSync(join(folder, name));
      if (buffer.length < 12 || buffer.toString("latin1", 0, 4) !== MAGIC) continue; // not ours: ignore
      if (packName(buffer) !== name) {
        stats.rejected = (stats.rejected ?? 0) + 1;
        continue;
      }
      const dims = buffer.readUInt32LE(4);
      const count = buffer.readUInt32LE(8);
      const record = 32 + dims * 4;
      if (buffer.length !== 12 + count * record) continue;
      storedDimensions = dims;
      for (let i = 0; i < count; i++) {
        const at = 12 + i * record;
        const key = buffer.toString("hex", at, at + 32);
        const vector = new Float32Array(dims);
        new Uint8Array(vector.buffer).set(buffer.subarray(at + 32, at + record));
        stored.set(key, vector);
      }
    }
    return stored;
  };

  const save = (entries: [string, Float32Array][]): void => {
    if (entries.length === 0) return;
    const dims = entries[0][1].length;
    const record = 32 + dims * 4;
    const buffer = Buffer.alloc(12 + entries.length * record);
    buffer.write(MAGIC, 0, "latin1");
    buffer.writeUInt32LE(dims, 4);
    buffer.writeUInt32LE(entries.length, 8);
    entries.forEach(([key, vector], i) => {
      const at = 12 + i * record;
      buffer.write(key, at, "hex");
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(buffer, at + 32);
    });
    writeFileAtomic(join(folder, packName(buffer)), buffer);
  };

  return {
    name: embedder.name,
    id: embedder.id,
    get dimensions() {
      return embedder.dimensions || storedDimensions;
    },
    maxInputTokens: embedder.maxInputTokens,
    inputs: embedder.inputs,
    cache: stats,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const map = load();
      const keys = texts.map((text) => sha256(text));
      const missing: number[] = [];
      const seen = new Set<string>();
      keys.forEach((key, i) => {
        if (!map.has(key) && !seen.has(key)) {
          missing.push(i);
          seen.add(key);
        }
      });
      stats.hits += texts.length - missing.length;
      stats.misses += missing.length;
      for (let from = 0; from < missing.length; from += saveEvery) {
        const slice = missing.slice(from, from + saveEvery);
        const fresh = await embedder.embed(slice.map((i) => texts[i]));
        const entries: [string, Float32Array][] = slice.map((i, j) => [keys[i], fresh[j]]);
        for (const [key, vector] of entries) map.set(key, vector);
        save(entries);
      }
      return keys.map((key) => Float32Array.from(map.get(key)!));
    },
  };
}

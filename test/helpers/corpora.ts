// Corpora for tests and benchmarks. Every clone has the pinned npm corpora (`npm ci` installs them); the real
// corpora (opentelemetry-docs, tts-handbook) are read only from the folder SEAMLAB_DATA_DIR names.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Doc } from "../../src/core/types";
import { loadCorpus } from "../../src/corpus/load";
import { requireDataDir } from "./data-dir";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Fastify's Guides folder (19 markdown files, ~250k chars): a small real markdown corpus every clone has. */
export const fastifyGuides = join(projectRoot, "node_modules", "fastify", "docs", "Guides");

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith(".md")) out.push(path);
  }
  return out;
}

const cache = new Map<string, Doc[]>();

/** A default corpus pinned in data/corpora.json and installed by `npm ci`, loaded as seamlab loads it. */
export function pinnedCorpus(name: "fastify-docs" | "moby-dick"): Doc[] {
  let docs = cache.get(name);
  if (!docs) {
    docs = loadCorpus(name, { projectRoot }).docs;
    cache.set(name, docs);
  }
  return docs;
}

/**
 * Every .md file of a real corpus under SEAMLAB_DATA_DIR as a Doc (id relative to the corpus root, CRLF
 * normalised). Throws when the variable is unset: only test/corpora and benchmarks call this.
 */
export function realCorpus(name: "opentelemetry-docs" | "tts-handbook"): Doc[] {
  const key = `real:${name}`;
  let docs = cache.get(key);
  if (!docs) {
    const root = join(requireDataDir(), name);
    docs = markdownFiles(root).map((path) => ({
      id: relative(root, path).split("\\").join("/"),
      text: readFileSync(path, "utf8").replace(/\r\n?/g, "\n"),
      source: path,
    }));
    cache.set(key, docs);
  }
  return docs;
}

/** Every `step`-th doc: a deterministic sample. */
export function sampleDocs(docs: Doc[], step: number): Doc[] {
  return docs.filter((_, i) => i % step === 0);
}

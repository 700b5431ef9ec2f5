// Reads the shared real corpora for splitter tests (a few lines of fs code; the corpus loader is tested elsewhere).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Doc } from "../../src/core/types";
import { seededRandom } from "../../src/core/random";

export const sharedData = fileURLToPath(new URL("../../../shared/data/", import.meta.url));

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

/** Every .md file of a shared corpus as a Doc (id relative to the corpus root, CRLF normalised). */
export function loadCorpus(name: "opentelemetry-docs" | "tts-handbook"): Doc[] {
  let docs = cache.get(name);
  if (!docs) {
    const root = join(sharedData, name);
    docs = markdownFiles(root).map((path) => ({
      id: relative(root, path).split("\\").join("/"),
      text: readFileSync(path, "utf8").replace(/\r\n?/g, "\n"),
      source: path,
    }));
    cache.set(name, docs);
  }
  return docs;
}

/** Every `step`-th doc: a deterministic sample. */
export function sampleDocs(docs: Doc[], step: number): Doc[] {
  return docs.filter((_, i) => i % step === 0);
}

/** Python's `" ".join([ch * 9] * 60)`: one 599-character paragraph (the seed's repro). */
export function paragraph599(ch: string): string {
  return Array.from({ length: 60 }, () => ch.repeat(9)).join(" ");
}

/** Seeded prose: paragraphs of 20-140 words. */
export function generatedProse(chars: number, seed = 7): string {
  const random = seededRandom(seed);
  const words = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "observability",
    "trace",
    "span",
    "metric",
    "log",
    "the",
    "a",
    "of",
  ];
  const paragraphs: string[] = [];
  let length = 0;
  while (length < chars) {
    const count = 20 + Math.floor(random() * 120);
    const paragraph: string[] = [];
    for (let i = 0; i < count; i++) paragraph.push(words[Math.floor(random() * words.length)]);
    const text = paragraph.join(" ") + ".";
    paragraphs.push(text);
    length += text.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, chars);
}

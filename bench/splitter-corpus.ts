// The default corpus of bench:splitters: real, distinct text a user's clone installs from the npm registry at the
// versions package.json pins (no ../shared, no generated or repeated text): Fastify's docs, Moby-Dick and the
// @mastra/core package's own documentation (dist/docs, 460 markdown files). 5.7 M characters at the pins.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Doc } from "../src/core/types";
import { loadCorpus, resolvePackageRoot } from "../src/corpus/load";
import { projectRoot } from "../src/core/project";

/** The parts, as one mixed corpus spec: two default corpora (pinned in data/corpora.json) and one npm folder. */
export const SPLITTER_CORPUS_SPEC = "fastify-docs+moby-dick+npm:@mastra/core/dist/docs/**/*.md";

/** The package behind the npm part, whose exact pin in package.json fixes its text. */
const NPM_PART_PACKAGE = "@mastra/core";

/** The smallest corpus that gives rounds long enough to measure (issue 32: 5 MB or more). */
export const MIN_CORPUS_CHARS = 5_000_000;

export interface BenchCorpus {
  name: string;
  docs: Doc[];
  chars: number;
}

/**
 * Loads the default splitter corpus. Throws when the npm part is not the version package.json pins (its text, and
 * so every figure, would differ) or when the corpus is under 5 M characters.
 */
export function splitterCorpus(root: string = projectRoot()): BenchCorpus {
  const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies?.[NPM_PART_PACKAGE];
  if (!pinned) throw new Error(`bench:splitters: package.json no longer depends on ${NPM_PART_PACKAGE}`);
  const packageRoot = resolvePackageRoot(NPM_PART_PACKAGE, root, "bench:splitters");
  const installed = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")).version;
  if (installed !== pinned)
    throw new Error(
      `bench:splitters: ${NPM_PART_PACKAGE}@${installed} is installed, package.json pins ${pinned}: run npm ci`,
    );
  const docs = loadCorpus(SPLITTER_CORPUS_SPEC, { projectRoot: root }).docs;
  const chars = docs.reduce((n, d) => n + d.text.length, 0);
  if (chars < MIN_CORPUS_CHARS)
    throw new Error(`bench:splitters: the default corpus has ${chars} characters, under ${MIN_CORPUS_CHARS}`);
  return { name: `fastify-docs + moby-dick + ${NPM_PART_PACKAGE}@${installed} docs`, docs, chars };
}

// The default corpora: npm packages pinned in package.json, named in `data/corpora.json`. Nothing is fetched at run
// time and no corpus text is committed.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SeamlabError } from "../core/errors";
import { projectRoot as seamlabRoot } from "../core/project";

export type DefaultCorpusKind = "prose" | "markdown";

export interface DefaultCorpusEntry {
  description: string;
  package: string;
  /** must equal the one pinned in package.json */
  version: string;
  licence: string;
  glob: string;
}

export interface CorpusManifest {
  defaults: Record<DefaultCorpusKind, string>;
  corpora: Record<string, DefaultCorpusEntry>;
}

export const CORPUS_MANIFEST_PATH = "data/corpora.json";

export function readCorpusManifest(projectRoot: string, { optional = false } = {}): CorpusManifest | undefined {
  const path = join(projectRoot, CORPUS_MANIFEST_PATH);
  if (!existsSync(path)) {
    if (optional) return undefined;
    throw new SeamlabError(`${path} not found: run seamlab from the project folder (or pass its root).`);
  }
  const manifest = JSON.parse(readFileSync(path, "utf8")) as CorpusManifest;
  if (!manifest || typeof manifest.corpora !== "object" || typeof manifest.defaults !== "object") {
    throw new SeamlabError(`${path} must have "defaults" and "corpora" objects.`);
  }
  return manifest;
}

/** "moby-dick" for prose, "fastify-docs" for markdown with `##` headings. */
export function defaultCorpus(kind: DefaultCorpusKind, projectRoot?: string): string {
  const manifest = readCorpusManifest(projectRoot ?? seamlabRoot())!;
  const name = manifest.defaults[kind];
  if (!name || !manifest.corpora[name])
    throw new SeamlabError(`${CORPUS_MANIFEST_PATH} names no default ${kind} corpus.`);
  return name;
}

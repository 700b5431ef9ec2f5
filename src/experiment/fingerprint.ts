import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { namesIn, sha256 } from "./cache";
import { projectRoot, readPackageJson, seamlabVersion } from "../core/project";

/**
 * The source folders a grid row's numbers depend on: a cache key hashes their code, so an edit invalidates cached
 * rows while the version stays the same. Folders that only present results are left out.
 */
export const ROW_SOURCE_FOLDERS: readonly string[] = [
  "core",
  "text",
  "stats",
  "corpus", // the structure splitter types sections with corpus/doc-types
  "splitters",
  "measure",
  "retrieval",
  "embed",
  "experiment",
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of namesIn(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mjs|js|json)$/.test(name)) out.push(path);
  }
  return out;
}

const fingerprints = new Map<string, string>();

/** A hash of ROW_SOURCE_FOLDERS' files (path and content) and package.json's `dependencies`, once per process. */
export function codeFingerprint(root: string = projectRoot()): string {
  const known = fingerprints.get(root);
  if (known) return known;
  const parts: string[] = [];
  for (const folder of ROW_SOURCE_FOLDERS) {
    for (const file of sourceFiles(join(root, "src", folder)))
      parts.push(relative(root, file).split("\\").join("/"), readFileSync(file, "utf8"));
  }
  try {
    parts.push("package.json#dependencies", JSON.stringify(readPackageJson(root).dependencies ?? {}));
  } catch {
    parts.push("package.json#missing");
  }
  const hash = sha256(parts.map((p) => `${p.length}:${p}`).join("\n"));
  fingerprints.set(root, hash);
  return hash;
}

/** What computed a cached result (seamlab's version and the code fingerprint): part of every result-cache key. */
export function resultsVersion(): string {
  return `${seamlabVersion()}+${codeFingerprint()}`;
}

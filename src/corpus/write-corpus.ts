// The corpus `queries ict|headers` writes beside its labelled file, as a folder seamlab owns (core/owned-folder.ts):
// switched in whole by a rename, replacing only a folder its manifest proves seamlab's, never where the corpus is read.
import { dirname, join, relative } from "node:path";
import { SeamlabError } from "../core/errors";
import {
  firstFive,
  foldersOverlap,
  lstatOrUndefined,
  MANIFEST,
  ownershipOf,
  readFolderManifest,
  realPathOfNew,
  realpathOrSelf,
  recoverBeside,
  removeOwned,
  swapIn,
  writeStaged,
} from "../core/owned-folder";
import type { Doc } from "../core/types";
import type { LoadedCorpus } from "./load";

const KIND = "corpus";

function readFolders(loaded: LoadedCorpus): string[] {
  const folders = new Set(loaded.docs.map((doc) => realpathOrSelf(dirname(doc.source ?? join(loaded.root, doc.id)))));
  if (loaded.name === undefined) folders.add(realpathOrSelf(loaded.root));
  return [...folders].sort();
}

/** Refuses `dir` when it exists and is not a folder seamlab provably wrote, unchanged. Cheap: call it before work. */
export function checkCorpusOut(dir: string, flag = "--corpus-out"): void {
  recoverBeside(dir, KIND);
  const stat = lstatOrUndefined(dir);
  if (!stat) return;
  if (!stat.isDirectory())
    throw new SeamlabError(`${flag} ${dir} is a ${stat.isSymbolicLink() ? "symbolic link" : "file"}; give a folder.`);
  const manifest = readFolderManifest(dir, KIND);
  if (!manifest) {
    throw new SeamlabError(
      `${flag} ${dir} exists and seamlab cannot prove it wrote it (it has no ${MANIFEST}); ` +
        `seamlab replaces only a folder it wrote, even with --force: delete it yourself or choose another ${flag}.`,
    );
  }
  const { foreign, edited } = ownershipOf(dir, manifest);
  if (foreign.length + edited.length > 0) {
    const parts: string[] = [];
    if (foreign.length > 0)
      parts.push(`${firstFive(foreign)} ${foreign.length > 1 ? "were" : "was"} not written by seamlab`);
    if (edited.length > 0)
      parts.push(`${firstFive(edited)} changed since seamlab wrote ${edited.length > 1 ? "them" : "it"}`);
    throw new SeamlabError(
      `${flag} ${dir}: ${parts.join("; ")}; seamlab replaces the folder only when every file in it is as it wrote ` +
        `it, even with --force: move those files out or choose another ${flag}.`,
    );
  }
}

export function checkOutsideCorpus(dir: string, loaded: LoadedCorpus, flag = "--corpus-out"): void {
  const out = realPathOfNew(dir);
  const clash = readFolders(loaded).find((folder) => foldersOverlap(out, folder));
  if (clash === undefined) return;
  const how = out === clash ? "is" : relative(out, clash).startsWith("..") ? "is inside" : "holds";
  throw new SeamlabError(
    `${flag} ${dir} ${how} ${clash}, a folder the corpus is read from; seamlab never writes into the folder it ` +
      `reads: choose a folder outside it.`,
  );
}

/** Each document at its id (`.txt` added without a text extension); returns files kept where the old folder went. */
export function writeCorpusFolder(dir: string, docs: readonly Doc[], about: Record<string, unknown> = {}): string[] {
  const files = new Map<string, string>();
  for (const doc of docs) {
    const rel = /\.(md|markdown|txt)$/i.test(doc.id) ? doc.id : `${doc.id}.txt`;
    if (rel.split("/").some((part) => part === ".." || part === "." || part === "") || rel.startsWith("/"))
      throw new SeamlabError(`document id "${doc.id}" would be written outside --corpus-out ${dir}.`);
    files.set(rel, doc.text);
  }
  const staging = writeStaged(dir, files, { seamlab: KIND, ...about });
  const aside = swapIn(staging, dir);
  return aside === undefined ? [] : removeOwned(aside, KIND);
}

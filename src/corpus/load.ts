/**
 * Loading a corpus: a folder, a glob, a single file, a default corpus name, or `npm:<package>/<path-or-glob>`,
 * into LF-normalised `Doc`s whose ids are paths relative to the corpus root, sorted.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { SeamlabError } from "../core/errors";
import type { Doc } from "../core/types";
import { projectRoot as seamlabRoot } from "../core/project";
import { readCorpusManifest, type DefaultCorpusEntry } from "./defaults";
import { SOURCE_EXTENSIONS } from "../text/code-units";
import { readTextFile } from "./text-file";

// The one reader of a text file (UTF-16 decoded, UTF-32 and binary refused by name), used by the corpus here.
export { readTextFile } from "./text-file";

/** File name endings a folder or glob corpus includes. */
export const CORPUS_EXTENSIONS: readonly string[] = [".md", ".markdown", ".txt"];

export interface LoadCorpusOptions {
  /** Where `npm:` packages resolve from and `data/corpora.json` lives (default: the seamlab checkout). */
  projectRoot?: string;
}

export interface LoadedCorpus {
  docs: Doc[];
  /** Absolute folder the doc ids are relative to. */
  root: string;
  /** Files skipped because they were empty or whitespace-only. */
  skippedEmpty: number;
  /** Entries with a corpus name that are not readable files (FIFOs, sockets, devices, dangling symlinks): skipped. */
  skippedSpecial?: number;
  /** Files matched (loaded + skipped). */
  files: number;
  /** The default corpus name when `spec` named one. */
  name?: string;
}

/** One file of a corpus listing: its doc id and where to read it. */
export interface CorpusFile {
  id: string;
  path: string;
}

/** The files a corpus spec names, in doc order, before any is read. */
export interface CorpusListing {
  /** Absolute folder the doc ids are relative to. */
  root: string;
  files: CorpusFile[];
  /** Entries with a corpus name that are not readable files (FIFOs, sockets, dangling symlinks): skipped. */
  skippedSpecial: number;
  /** The default corpus name (or the mixed spec) when `spec` named one. */
  name?: string;
}

/**
 * A corpus read lazily: `docs()` yields one document at a time in id order, reading each file only when it is
 * reached, so a caller that measures document by document holds one text at a time, never the whole corpus.
 * Empty files are skipped and counted in `skippedEmpty` as the iteration passes them; if every file was empty,
 * the iteration throws at its end (as `loadCorpus` does).
 */
export interface CorpusStream extends CorpusListing {
  /** The documents in id order; with `only`, just the files whose ids it holds (the others are not read). */
  docs(only?: ReadonlySet<string>): Generator<Doc>;
  /** Empty or whitespace-only files passed so far. */
  readonly skippedEmpty: number;
}

/**
 * Loads a corpus. `spec` is, in order of precedence: an existing file or folder; a default corpus name
 * from `data/corpora.json` (e.g. `moby-dick`); `npm:<package>/<path-or-glob>` (resolved from the project
 * root); or a glob (`docs/**\/*.md`, `*`, `?`, `{a,b}`, `[abc]`).
 *
 * Every document is held in memory: callers that need the whole corpus at once (retrieval indexes all of it) use
 * this; callers that can work one document at a time use `streamCorpus`, which this collects.
 */
export function loadCorpus(spec: string, options: LoadCorpusOptions = {}): LoadedCorpus {
  const stream = streamCorpus(spec, options);
  const docs = [...stream.docs()];
  const loaded: LoadedCorpus = {
    docs,
    root: stream.root,
    skippedEmpty: stream.skippedEmpty,
    files: stream.files.length,
  };
  if (stream.skippedSpecial > 0) loaded.skippedSpecial = stream.skippedSpecial;
  if (stream.name !== undefined) loaded.name = stream.name;
  return loaded;
}

/** The corpus `spec` names (see `loadCorpus`), listed now and read one file at a time as `docs()` is iterated. */
export function streamCorpus(spec: string, options: LoadCorpusOptions = {}): CorpusStream {
  const listing = listCorpus(spec, options);
  let skippedEmpty = 0;
  return {
    ...listing,
    get skippedEmpty() {
      return skippedEmpty;
    },
    *docs(only?: ReadonlySet<string>) {
      skippedEmpty = 0;
      let yielded = 0;
      for (const file of listing.files) {
        if (only && !only.has(file.id)) continue;
        const text = readTextFile(file.path);
        if (text.trim() === "") {
          skippedEmpty++;
          continue;
        }
        yielded++;
        yield { id: file.id, text, source: file.path };
      }
      if (yielded === 0) {
        throw new SeamlabError(
          `corpus "${spec}": all ${listing.files.length} files are empty or whitespace-only (in ${listing.root}).`,
        );
      }
    },
  };
}

/** The files of the corpus `spec` names (see `loadCorpus`), in doc order, none read yet. */
export function listCorpus(spec: string, options: LoadCorpusOptions = {}): CorpusListing {
  if (spec.trim() === "")
    throw new SeamlabError(
      "--corpus is empty: give a folder, file, glob, default corpus name or npm:<package>/<path>.",
    );
  const projectRoot = options.projectRoot ?? seamlabRoot();
  if (existsSync(spec)) return listPath(resolve(spec), spec);
  if (spec.includes("+")) return listMixedCorpus(spec, { ...options, projectRoot });
  const manifest = readCorpusManifest(projectRoot, { optional: true });
  const entry = manifest?.corpora[spec];
  if (entry) return { ...listDefaultCorpus(spec, entry, projectRoot), name: spec };
  if (spec.startsWith("npm:")) return listNpmSpec(spec, projectRoot);
  if (hasGlobSyntax(spec)) return listGlob(resolve(spec), spec);
  const names = manifest ? Object.keys(manifest.corpora).join(", ") : "none found";
  throw new SeamlabError(
    `corpus "${spec}" not found: it is not an existing file or folder, a glob, npm:<package>/<path>, ` +
      `or a default corpus name (${names}).`,
  );
}

/**
 * A mixed corpus, `a+b+c`: each part listed as a corpus of its own, document ids prefixed with the part's spec
 * (`fastify-docs/Reference/Routes.md`), so parts that share file names stay apart.
 */
function listMixedCorpus(spec: string, options: LoadCorpusOptions): CorpusListing {
  const parts = spec.split("+").map((p) => p.trim());
  if (parts.some((p) => p === ""))
    throw new SeamlabError(`--corpus "${spec}": a mixed corpus is part+part+..., with no empty part.`);
  const files: CorpusFile[] = [];
  let skippedSpecial = 0;
  for (const part of parts) {
    const listed = listCorpus(part, options);
    for (const file of listed.files) files.push({ id: `${part}/${file.id}`, path: file.path });
    skippedSpecial += listed.skippedSpecial;
  }
  return { files, root: options.projectRoot ?? seamlabRoot(), skippedSpecial, name: spec };
}

function listDefaultCorpus(name: string, entry: DefaultCorpusEntry, projectRoot: string): CorpusListing {
  const packageRoot = resolvePackageRoot(entry.package, projectRoot, `default corpus "${name}"`);
  const installed = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")).version;
  // The numbers seamlab reports depend on the exact text: refuse a different version than the pinned one.
  if (installed !== entry.version) {
    throw new SeamlabError(
      `default corpus "${name}" is pinned to ${entry.package}@${entry.version} but ${installed} is installed; run \`npm ci\`.`,
    );
  }
  return listGlob(join(packageRoot, entry.glob), `${name} (${entry.package}@${entry.version}/${entry.glob})`);
}

function listNpmSpec(spec: string, projectRoot: string): CorpusListing {
  const rest = spec.slice("npm:".length);
  const parts = rest.split("/");
  const nameParts = rest.startsWith("@") ? 2 : 1;
  const packageName = parts.slice(0, nameParts).join("/");
  if (!packageName || (nameParts === 2 && parts.length < 2)) {
    throw new SeamlabError(
      `"${spec}" is not a package spec: use npm:<package>/<path-or-glob>, e.g. npm:fastify/docs/**/*.md.`,
    );
  }
  const packageRoot = resolvePackageRoot(packageName, projectRoot, `"${spec}"`);
  const inside = parts.slice(nameParts).join("/");
  const target = inside === "" ? packageRoot : join(packageRoot, inside);
  if (existsSync(target)) return listPath(target, spec);
  if (hasGlobSyntax(inside)) return listGlob(target, spec);
  throw new SeamlabError(`"${spec}": ${packageName} has no file or folder "${inside}" (looked in ${packageRoot}).`);
}

/** The installed folder of `packageName`, resolved like `require` would from the project root. */
export function resolvePackageRoot(packageName: string, projectRoot: string, what: string): string {
  const require = createRequire(join(projectRoot, "package.json"));
  try {
    return dirname(require.resolve(`${packageName}/package.json`));
  } catch {
    // Packages whose `exports` hide package.json: look in the node_modules folders require would search.
    for (const folder of require.resolve.paths(packageName) ?? []) {
      const candidate = join(folder, packageName);
      if (existsSync(join(candidate, "package.json"))) return candidate;
    }
    throw new SeamlabError(
      `${what}: package "${packageName}" is not installed (from ${projectRoot}); run \`npm ci\` or \`npm install ${packageName}\`.`,
    );
  }
}

function listPath(absolute: string, spec: string): CorpusListing {
  const stats = statSync(absolute);
  if (stats.isFile()) return listFiles(dirname(absolute), [basename(absolute)], spec);
  if (!stats.isDirectory()) throw new SeamlabError(`corpus "${spec}" is neither a file nor a folder.`);
  const special: string[] = [];
  const files = walkFiles(absolute, special).filter(hasCorpusExtension);
  return listFiles(absolute, files, spec, special.filter(hasCorpusExtension).length);
}

function listGlob(absolutePattern: string, spec: string): CorpusListing {
  const { base, pattern } = splitGlob(absolutePattern);
  if (!existsSync(base) || !statSync(base).isDirectory()) {
    throw new SeamlabError(`corpus glob "${spec}": its base folder ${base} does not exist.`);
  }
  const matches = globMatcher(pattern);
  const special: string[] = [];
  // A glob that names source files or CSVs by extension (`lib/*.js`) takes them; otherwise only text files.
  const named = /\.([A-Za-z0-9]+)$/.exec(pattern);
  const explicit = named && isSourceOrTableExtension("." + named[1]) ? "." + named[1].toLowerCase() : undefined;
  const keep = (file: string) =>
    matches(file) && (hasCorpusExtension(file) || (explicit !== undefined && file.toLowerCase().endsWith(explicit)));
  const files = walkFiles(base, special).filter(keep);
  return listFiles(base, files, spec, special.filter(keep).length);
}

function listFiles(root: string, relativePaths: string[], spec: string, skippedSpecial = 0): CorpusListing {
  if (relativePaths.length === 0) {
    throw new SeamlabError(`corpus "${spec}" has no ${CORPUS_EXTENSIONS.join("/")} files (looked in ${root}).`);
  }
  const ids = [...relativePaths].sort(compareIds);
  return { root, files: ids.map((id) => ({ id, path: join(root, ...id.split("/")) })), skippedSpecial };
}

/**
 * Relative paths (with `/`) of every file under `root`. Dot-folders and node_modules are skipped, and
 * symlinked folders are not followed (no cycles). An explicit stack, not recursion: deep trees are fine.
 */
export function walkFiles(root: string, special: string[] = []): string[] {
  const files: string[] = [];
  const stack: string[] = [root];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") stack.push(path);
      } else if (entry.isFile() || (entry.isSymbolicLink() && isFileTarget(path))) {
        files.push(relative(root, path).split(sep).join("/"));
      } else if (!(entry.isSymbolicLink() && isFolderTarget(path))) {
        // A FIFO, socket, device or dangling symlink: not read (a FIFO would block), but counted by the caller.
        special.push(relative(root, path).split(sep).join("/"));
      }
    }
  }
  return files;
}

function isFolderTarget(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFileTarget(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isSourceOrTableExtension(ext: string): boolean {
  const lower = ext.toLowerCase();
  return SOURCE_EXTENSIONS.includes(lower) || lower === ".csv" || lower === ".tsv";
}

function hasCorpusExtension(path: string): boolean {
  const lower = path.toLowerCase();
  return CORPUS_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

// Plain code-unit order: the same on every machine and locale (localeCompare is not).
/**
 * Natural order (chapter_2 before chapter_10) so reports list documents as a reader expects; a fixed locale keeps
 * it deterministic, and ids the collator calls equal (e.g. "a01" / "a1") fall back to code-unit order.
 */
const idCollator = new Intl.Collator("en", { numeric: true, sensitivity: "variant" });
function compareIds(a: string, b: string): number {
  return idCollator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

const GLOB_CHARS = /[*?{[]/;

export function hasGlobSyntax(spec: string): boolean {
  return GLOB_CHARS.test(spec);
}

/** Splits an absolute glob into the folder before its first wildcard segment and the pattern after it. */
export function splitGlob(absolutePattern: string): { base: string; pattern: string } {
  const segments = absolutePattern.split(sep).join("/").split("/");
  const first = segments.findIndex((segment) => hasGlobSyntax(segment));
  if (first < 0) return { base: dirname(absolutePattern), pattern: basename(absolutePattern) };
  return { base: segments.slice(0, first).join("/") || "/", pattern: segments.slice(first).join("/") };
}

/**
 * A matcher for a relative `/`-separated glob, by picomatch: `**` any number of folders, `*` and `?` within one
 * path segment, `{a,b}` alternatives, `[abc]` / `[!abc]` classes (a literal `(`, `)`, `+` or `@` next to a
 * wildcard needs a backslash). Node 20 has no `fs.glob` (it arrived, experimental, in Node 22), so seamlab matches
 * over one directory walk. Names starting with a dot match like any other (the walk skips dot folders).
 */
export function globMatcher(pattern: string): (path: string) => boolean {
  return picomatch(pattern, { dot: true, posix: true });
}

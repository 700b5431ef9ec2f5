import { existsSync, readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { SeamlabError } from "../core/errors";
import type { Doc } from "../core/types";
import { projectRoot as seamlabRoot } from "../core/project";
import { readCorpusManifest, type DefaultCorpusEntry } from "./defaults";
import { SOURCE_EXTENSIONS } from "../text/code-units";
import { readTextFile } from "./text-file";

export const CORPUS_EXTENSIONS: readonly string[] = [".md", ".markdown", ".txt"];

export interface LoadCorpusOptions {
  /** where `npm:` packages resolve and `data/corpora.json` lives (default: the seamlab checkout) */
  projectRoot?: string;
}

/** The files a corpus spec names, in doc order (ids relative to `root`, sorted), before any is read. */
export interface CorpusListing {
  root: string;
  files: { id: string; path: string }[];
  /** FIFOs, sockets, devices, dangling symlinks with a corpus name: skipped */
  skippedSpecial: number;
  /** the default corpus name (or the mixed spec) */
  name?: string;
}

export type LoadedCorpus = ReturnType<typeof loadCorpus>;
export type CorpusStream = ReturnType<typeof streamCorpus>;

/** `spec`: a file or folder, `a+b`, a default corpus name, `npm:<package>/<path-or-glob>`, or a glob, in that order. */
export function loadCorpus(spec: string, options: LoadCorpusOptions = {}) {
  const stream = streamCorpus(spec, options);
  const docs = [...stream.docs()];
  return {
    docs,
    root: stream.root,
    skippedEmpty: stream.skippedEmpty,
    files: stream.files.length,
    ...(stream.skippedSpecial > 0 ? { skippedSpecial: stream.skippedSpecial } : {}),
    ...(stream.name !== undefined ? { name: stream.name } : {}),
  };
}

/** One file read at a time; `docs(only)` reads only the ids `only` holds; all files empty throws at the end. */
export function streamCorpus(spec: string, options: LoadCorpusOptions = {}) {
  const listing = listCorpus(spec, options);
  let skippedEmpty = 0;
  return {
    ...listing,
    get skippedEmpty() {
      return skippedEmpty;
    },
    *docs(only?: ReadonlySet<string>): Generator<Doc> {
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

/** `a+b+c`: each part a corpus of its own, ids prefixed with the part's spec so shared file names stay apart. */
function listMixedCorpus(spec: string, options: LoadCorpusOptions): CorpusListing {
  const parts = spec.split("+").map((p) => p.trim());
  if (parts.some((p) => p === ""))
    throw new SeamlabError(`--corpus "${spec}": a mixed corpus is part+part+..., with no empty part.`);
  const files: CorpusListing["files"] = [];
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
  // the numbers depend on the exact text
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

export function resolvePackageRoot(packageName: string, projectRoot: string, what: string): string {
  const require = createRequire(join(projectRoot, "package.json"));
  try {
    return dirname(require.resolve(`${packageName}/package.json`));
  } catch {
    // `exports` hides package.json: look in the folders require would search
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
  // a glob naming source files or CSVs by extension (`lib/*.js`) takes them
  const named = /\.([A-Za-z0-9]+)$/.exec(pattern);
  const extension = named ? "." + named[1].toLowerCase() : "";
  const explicit = [...SOURCE_EXTENSIONS, ".csv", ".tsv"].includes(extension) ? extension : undefined;
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

/** `/`-relative paths under `root`, skipping dot-folders and node_modules, not following symlinked folders. */
export function walkFiles(root: string, special: string[] = []): string[] {
  const files: string[] = [];
  const stack: string[] = [root];
  while (stack.length > 0) {
    const folder = stack.pop()!;
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules") stack.push(path);
      } else if (!(entry.isSymbolicLink() && targetOf(path)?.isDirectory())) {
        // in `special`: a FIFO (would block), socket, device or dangling symlink, counted, not read
        const file = entry.isFile() || (entry.isSymbolicLink() && targetOf(path)?.isFile());
        (file ? files : special).push(relative(root, path).split(sep).join("/"));
      }
    }
  }
  return files;
}

function targetOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

const hasCorpusExtension = (path: string): boolean => CORPUS_EXTENSIONS.some((ext) => path.toLowerCase().endsWith(ext));

// Natural order (chapter_2 before chapter_10) in a fixed locale; ids it calls equal ("a01", "a1") by code units.
const idCollator = new Intl.Collator("en", { numeric: true, sensitivity: "variant" });
const compareIds = (a: string, b: string): number => idCollator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

export const hasGlobSyntax = (spec: string): boolean => /[*?{[]/.test(spec);

export function splitGlob(absolutePattern: string): { base: string; pattern: string } {
  const segments = absolutePattern.split(sep).join("/").split("/");
  const first = segments.findIndex((segment) => hasGlobSyntax(segment));
  if (first < 0) return { base: dirname(absolutePattern), pattern: basename(absolutePattern) };
  return { base: segments.slice(0, first).join("/") || "/", pattern: segments.slice(first).join("/") };
}

/** Node 20 has no `fs.glob`: picomatch over one directory walk (dot names match; the walk skips dot folders). */
export function globMatcher(pattern: string): (path: string) => boolean {
  return picomatch(pattern, { dot: true, posix: true });
}

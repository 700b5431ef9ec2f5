// The report's kernels load a compiled copy of src/ (CommonJS .js + .d.ts) instead of compiling it themselves.
// tslab type-checks, emits and transpiles every project file a cell reaches, in every kernel: 5-9 s of CPU for
// each notebook's import cells. Here that is done once, with tslab's own TypeScript and tslab's own compiler
// options (so the types cells are checked against, the JavaScript that runs, and its sloppy mode are the same),
// and kept in `.seamlab-cache/kernel-src/<key>/` keyed by the hash of what it depends on, so a later report with
// the same sources reuses it. A kernel's `./src` is linked to it (kernel.ts useSources). When the sources do not
// compile cleanly under tslab, there is no copy: the kernels compile src/ as before and show the errors in the
// notebook, as they always did.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { Worker } from "node:worker_threads";
import type * as TypeScript from "typescript";
import { globalDeclarationNames, isNodeTypesFile, NODE_GLOBALS_FILE } from "./kernel-node-types";
import { buildKey, landBuild, pruneBuilds, readUnlessGone, sortedFilesUnder, type Landed } from "../build/land.cjs";

type Ts = typeof TypeScript;

/** Folders of src/ that notebooks never reach (plain Node ESM code run by tsx). */
const NOTEBOOK_UNREACHABLE = ["report", "cli"];

/** Bumped when this file changes what it writes, so an old copy is never used. */
const BUILD_FORMAT = "kernel-src 3";

/** Where compiled copies live, under the project root (so package lookups and projectRoot() still find it). */
export function kernelSourcesDir(root: string): string {
  return join(root, ".seamlab-cache", "kernel-src");
}

/** Every file of src/ a notebook can reach (TypeScript sources and the plain files beside them), sorted. */
export function notebookSourceFiles(root: string): string[] {
  return sortedFilesUnder(join(root, "src"), NOTEBOOK_UNREACHABLE);
}

/** tslab's TypeScript version, from its package.json (without loading the compiler). */
function tslabTypeScriptVersion(root: string): string {
  const require = createRequire(join(root, "node_modules", "tslab", "package.json"));
  return JSON.parse(readFileSync(require.resolve("@tslab/typescript-for-tslab/package.json"), "utf8")).version;
}

const readIfExists = (path: string): string => (existsSync(path) ? readFileSync(path, "utf8") : "");

/**
 * The hash a compiled copy is filed under: the notebook-reachable sources, the installed packages (their types
 * shape the declarations), tslab's version and TypeScript's, and the build's format.
 */
export function kernelSourcesKey(
  root: string,
  ts: { version: string } = { version: tslabTypeScriptVersion(root) },
): string {
  const tslabManifest = readIfExists(join(root, "node_modules", "tslab", "package.json"));
  const parts = [BUILD_FORMAT, ts.version, tslabManifest, readIfExists(join(root, "package-lock.json"))];
  return buildKey(root, parts, notebookSourceFiles(root));
}

function tslabTypeScript(root: string): Ts {
  return createRequire(join(root, "node_modules", "tslab", "package.json"))("@tslab/typescript-for-tslab") as Ts;
}

/**
 * tslab 1.0.22's compiler options (node_modules/tslab/dist/converter.js, createConverter), except `module`: tslab
 * emits ES modules and then transpiles each file again to CommonJS; emitting CommonJS directly gives the same
 * module code in one pass. `noImplicitUseStrict` keeps tslab's sloppy-mode output.
 */
export function tslabCompilerOptions(ts: Ts, root: string, outDir: string): TypeScript.CompilerOptions {
  return {
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    declaration: true,
    newLine: ts.NewLineKind.LineFeed,
    noImplicitUseStrict: true,
    ignoreDeprecations: "5.0",
    experimentalDecorators: true,
    resolveJsonModule: true,
    jsx: ts.JsxEmit.React,
    allowJs: true,
    checkJs: true,
    skipLibCheck: true,
    rootDir: root,
    outDir,
  };
}

export interface KernelSources {
  /** The compiled copy (holding `src/` and a CommonJS package.json), or undefined when the kernels compile src/. */
  dir?: string;
  /** True when an earlier run's copy was used. */
  reused: boolean;
  /** tslab's diagnostics in src/ ("src/x.ts:12 message"), when there is no copy because of them. */
  diagnostics: string[];
  /** The global names @types/node declares (kernel-node-types.ts), when there is a copy. */
  nodeGlobals?: string[];
  ms: number;
}

/** The global names kept in a compiled copy, or undefined when it has none (a copy of an older format). */
function readNodeGlobals(dir: string): string[] | undefined {
  try {
    const names: unknown = JSON.parse(readFileSync(join(dir, NODE_GLOBALS_FILE), "utf8"));
    return Array.isArray(names) && names.every((name) => typeof name === "string") ? names : undefined;
  } catch {
    return undefined;
  }
}

/** Compiled copies kept besides the current one (another report of other sources may be running). */
const KEEP_OTHERS = 2;

/** Removes what earlier builds left in `dir`: temp folders of dead processes, and all but the newest copies. */
export function pruneKernelSources(dir: string, keep: string): void {
  pruneBuilds(dir, "", keep, { keep: KEEP_OTHERS, unusedMs: 0 });
}

/**
 * Compiles the notebook-reachable sources into `outDir`; returns tslab's diagnostics (nothing written if any).
 * `onNodeGlobals` hears the global names @types/node declares (kernel-node-types.ts) as soon as the program is
 * parsed, before the check and emit: kernels started from then on can leave @types/node out.
 */
export function compileKernelSources(
  root: string,
  outDir: string,
  ts: Ts = tslabTypeScript(root),
  onNodeGlobals?: (names: string[]) => void,
): string[] {
  const files = notebookSourceFiles(root);
  const sources = files.filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"));
  const program = ts.createProgram(sources, tslabCompilerOptions(ts, root, outDir));
  const nodeGlobals = globalDeclarationNames(
    ts,
    program.getSourceFiles().filter((f) => isNodeTypesFile(f.fileName)),
  );
  onNodeGlobals?.(nodeGlobals);
  const srcDir = join(root, "src");
  const own = program.getSourceFiles().filter((file) => !relative(srcDir, file.fileName).startsWith(".."));
  const diagnostics = own.flatMap((file) => [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
    ...program.getDeclarationDiagnostics(file),
  ]);
  const outputs = new Map<string, string>();
  if (diagnostics.length === 0) {
    const emitted = program.emit(undefined, (path, text) => outputs.set(path, text));
    diagnostics.push(...emitted.diagnostics);
  }
  if (diagnostics.length > 0) {
    return diagnostics.map((d) => {
      const where = d.file
        ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} `
        : "";
      return where + ts.flattenDiagnosticMessageText(d.messageText, " ");
    });
  }
  for (const [path, text] of outputs) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  // Plain files beside the sources (worker scripts found relative to the module that starts them) come along.
  for (const path of files) {
    if (sources.includes(path)) continue;
    const target = join(outDir, relative(root, path));
    const content = readUnlessGone(path);
    if (content === undefined) continue;
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  writeFileSync(join(outDir, NODE_GLOBALS_FILE), JSON.stringify(nodeGlobals) + "\n");
  // The project's package.json says "type": "module"; the compiled files are CommonJS. Written last: its presence
  // marks a complete copy.
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
  return [];
}

/**
 * The compiled copy for the current sources: reused when one exists, else built into a temp folder and renamed
 * into place whole (a concurrent report building the same key keeps whichever landed first).
 */
export function prepareKernelSources(
  root: string,
  key: string = kernelSourcesKey(root),
  onNodeGlobals?: (names: string[]) => void,
): KernelSources {
  const started = performance.now();
  const parent = kernelSourcesDir(root);
  const done = (result: Omit<KernelSources, "ms">): KernelSources => ({ ...result, ms: performance.now() - started });
  let nodeGlobals: string[] | undefined;
  let diagnostics: string[] = [];
  const landed = landBuild(
    parent,
    key,
    (dir) => existsSync(join(dir, "package.json")),
    (temp) => {
      diagnostics = compileKernelSources(root, temp, undefined, (names) => {
        nodeGlobals = names;
        onNodeGlobals?.(names);
      });
      return diagnostics.length === 0;
    },
  ) as Landed | undefined;
  if (!landed) return done({ reused: false, diagnostics });
  pruneKernelSources(parent, key);
  if (landed.reused) {
    nodeGlobals = readNodeGlobals(landed.dir);
    if (nodeGlobals) onNodeGlobals?.(nodeGlobals);
  }
  return done({ dir: landed.dir, reused: landed.reused, diagnostics: [], ...(nodeGlobals ? { nodeGlobals } : {}) });
}

export interface PendingKernelSources {
  /** Where the copy will be, named before it exists. */
  dir: string;
  /** Settles when the copy is in place, or when there will be none (diagnostics; the kernels compile src/). */
  ready: Promise<KernelSources>;
  /**
   * The global names @types/node declares, as far as known now: read from the copy when it already exists, else
   * posted by the worker once its program is parsed (seconds before `ready`), else undefined. A kernel started
   * before they are known keeps @types/node rather than wait: the first kernels would otherwise sit idle while the
   * worker parses, and they wait for `ready` anyway.
   */
  nodeGlobals: () => string[] | undefined;
}

/**
 * `prepareKernelSources` in a worker thread, so the kernels start (about 2 s of CPU each) while src/ compiles.
 * The worker dies with this process; a temp folder it leaves is reclaimed by the next build.
 */
export function startKernelSources(root: string): PendingKernelSources {
  const key = kernelSourcesKey(root);
  const dir = join(kernelSourcesDir(root), key);
  let known = existsSync(join(dir, "package.json")) ? readNodeGlobals(dir) : undefined;
  const worker = new Worker(new URL("./kernel-sources-worker.mjs", import.meta.url), { workerData: { root, key } });
  type Message = { nodeGlobals: string[] } | { result: KernelSources };
  const ready = new Promise<KernelSources>((resolve, reject) => {
    worker.on("message", (message: Message) => {
      if ("nodeGlobals" in message) known ??= message.nodeGlobals;
      else resolve(message.result);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the compiling worker exited (code ${code})`)));
  });
  return { dir, ready, nodeGlobals: () => known };
}

export interface KernelSourcesForRun extends Omit<PendingKernelSources, "nodeGlobals"> {
  nodeGlobals: () => Set<string> | undefined;
}

/**
 * The compiled copy of src/ the kernels are to load (being built while they start), or undefined when they are to
 * compile src/ themselves. `ready` never rejects: a failed build is logged, and the kernels, finding no copy,
 * compile src/ as before. `nodeGlobals()` gives @types/node's global names once known (kernel-node-types.ts).
 */
export function kernelSourcesForRun(root: string, log: (line: string) => void): KernelSourcesForRun | undefined {
  if (process.env.SEAMLAB_REPORT_SOURCES === "tslab") return undefined;
  let pending: PendingKernelSources;
  try {
    pending = startKernelSources(root);
  } catch (error) {
    log(`could not compile src/ for the kernels (${(error as Error).message}); the kernels compile it themselves`);
    return undefined;
  }
  const ready = pending.ready.then(
    (sources) => {
      const seconds = (sources.ms / 1000).toFixed(1);
      if (sources.dir) log(`${sources.reused ? "reused" : "compiled"} src/ for the kernels in ${seconds} s`);
      else {
        log(
          `src/ has ${sources.diagnostics.length} error(s) under tslab's TypeScript (first: ${sources.diagnostics[0]}); ` +
            `the kernels compile it themselves and report them in the notebooks`,
        );
      }
      return sources;
    },
    (error: Error) => {
      log(`could not compile src/ for the kernels (${error.message}); the kernels compile it themselves`);
      return { reused: false, diagnostics: [], ms: 0 };
    },
  );
  let names: Set<string> | undefined;
  const nodeGlobals = () => {
    const known = pending.nodeGlobals();
    if (known !== undefined && names === undefined) names = new Set(known);
    return names;
  };
  return { dir: pending.dir, ready, nodeGlobals };
}

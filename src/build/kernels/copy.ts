// The report's kernels load a compiled copy of src/ (CommonJS + .d.ts) instead of each compiling it (5-9 s of CPU per
// notebook), made once with tslab's own TypeScript and options. When src/ does not compile under tslab there is no
// copy: the kernels compile it themselves and show the errors in the notebook.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { Worker } from "node:worker_threads";
import type * as TypeScript from "typescript";
import { buildKey, landBuild, pruneBuilds, readUnlessGone, sortedFilesUnder, type Landed } from "../land.cjs";

type Ts = typeof TypeScript;

/** Kept in a copy: the global names @types/node declares (a kernel whose notebook names none starts without it). */
const NODE_GLOBALS_FILE = "node-globals.json";
const isNodeTypesFile = (file: TypeScript.SourceFile) =>
  /[\\/]node_modules[\\/]@types[\\/]node[\\/]/.test(file.fileName);

/** Bumped when this file changes what it writes, so an old copy is never used. */
const BUILD_FORMAT = "kernel-src 3";

/** Under the project root, so package lookups and projectRoot() still work from a copy. */
export function kernelSourcesDir(root: string): string {
  return join(root, ".seamlab-cache", "kernel-src");
}

/** Every file of src/ a notebook can reach (report/ and cli/ are plain Node code run by tsx), sorted. */
export function notebookSourceFiles(root: string): string[] {
  return sortedFilesUnder(join(root, "src"), ["report", "cli", "build/kernels"]);
}

const tslabRequire = (root: string) => createRequire(join(root, "node_modules", "tslab", "package.json"));

const readIfExists = (path: string): string => (existsSync(path) ? readFileSync(path, "utf8") : "");

/** The key a copy is filed under: the notebook-reachable sources, the installed packages, tslab's and TS's versions. */
export function kernelSourcesKey(
  root: string,
  ts: { version: string } = JSON.parse(
    readFileSync(tslabRequire(root).resolve("@tslab/typescript-for-tslab/package.json"), "utf8"),
  ),
): string {
  const tslabManifest = readIfExists(join(root, "node_modules", "tslab", "package.json"));
  const parts = [BUILD_FORMAT, ts.version, tslabManifest, readIfExists(join(root, "package-lock.json"))];
  return buildKey(root, parts, notebookSourceFiles(root));
}

/** tslab 1.0.22's compiler options (dist/converter.js), but emitting CommonJS directly (tslab goes by ES modules). */
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
  /** The compiled copy, or undefined when the kernels compile src/. */
  dir?: string;
  reused: boolean;
  /** tslab's diagnostics in src/ ("src/x.ts:12 message"), when there is no copy because of them. */
  diagnostics: string[];
  /** The global names @types/node declares (kernel-node-types.ts). */
  nodeGlobals?: string[];
  ms: number;
}

function readNodeGlobals(dir: string): string[] | undefined {
  try {
    const names: unknown = JSON.parse(readFileSync(join(dir, NODE_GLOBALS_FILE), "utf8"));
    return Array.isArray(names) && names.every((name) => typeof name === "string") ? names : undefined;
  } catch {
    return undefined;
  }
}

/** Compiles into `outDir`, or returns tslab's diagnostics; `onNodeGlobals` hears the global names before the check. */
export function compileKernelSources(
  root: string,
  outDir: string,
  ts: Ts = tslabRequire(root)("@tslab/typescript-for-tslab") as Ts,
  onNodeGlobals?: (names: string[]) => void,
): string[] {
  const files = notebookSourceFiles(root);
  const sources = files.filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"));
  const options = tslabCompilerOptions(ts, root, outDir);
  // @types/node alone first (two fifths of the text parsed): the kernels wait for its global names to start without
  // it, and its files, parsed once, go into the whole program.
  const host = ts.createCompilerHost(options);
  const parsedFiles = new Map<string, TypeScript.SourceFile | undefined>();
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, ...rest) => {
    if (!parsedFiles.has(fileName)) parsedFiles.set(fileName, parse(fileName, ...rest));
    return parsedFiles.get(fileName);
  };
  const nodeIndex = ts.resolveTypeReferenceDirective("node", join(root, "package.json"), options, host)
    .resolvedTypeReferenceDirective?.resolvedFileName;
  const nodeOnly = ts.createProgram(nodeIndex ? [nodeIndex] : [], { ...options, types: [] }, host);
  const nodeGlobals = globalDeclarationNames(ts, nodeOnly.getSourceFiles().filter(isNodeTypesFile));
  onNodeGlobals?.(nodeGlobals);
  const program = ts.createProgram(sources, options, host);
  const parsed = program.getSourceFiles();
  const srcDir = join(root, "src");
  const own = parsed.filter((file) => !relative(srcDir, file.fileName).startsWith(".."));
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
  const write = (path: string, text: string | Buffer) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  for (const [path, text] of outputs) write(path, text);
  // Plain files beside the sources (worker scripts found relative to the module that starts them) come along.
  for (const path of files) {
    const content = sources.includes(path) ? undefined : readUnlessGone(path);
    if (content !== undefined) write(join(outDir, relative(root, path)), content);
  }
  writeFileSync(join(outDir, NODE_GLOBALS_FILE), JSON.stringify(nodeGlobals) + "\n");
  // The compiled files are CommonJS under a "type": "module" project. Written last: it marks a complete copy.
  writeFileSync(join(outDir, "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
  return [];
}

/** The compiled copy for the current sources: reused when one exists, else built aside and renamed into place. */
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
  // temp folders of dead processes, and all but two other copies (another report may be running from one)
  pruneBuilds(parent, "", key, { keep: 2, unusedMs: 0 });
  if (landed.reused) {
    nodeGlobals = readNodeGlobals(landed.dir);
    if (nodeGlobals) onNodeGlobals?.(nodeGlobals);
  }
  return done({ dir: landed.dir, reused: landed.reused, diagnostics: [], ...(nodeGlobals ? { nodeGlobals } : {}) });
}

export interface PendingKernelSources {
  /** Where the copy will be, named before it exists. */
  dir: string;
  ready: Promise<KernelSources>;
  /** @types/node's global names, known early in a build (undefined when it ends without them). */
  nodeGlobals: Promise<string[] | undefined>;
}

/** `prepareKernelSources` in a worker thread, so the kernels start (about 1 s of CPU each) while src/ compiles. */
export function startKernelSources(root: string): PendingKernelSources {
  const key = kernelSourcesKey(root);
  const dir = join(kernelSourcesDir(root), key);
  const known = existsSync(join(dir, "package.json")) ? readNodeGlobals(dir) : undefined;
  const worker = new Worker(new URL("./copy-worker.mjs", import.meta.url), { workerData: { root, key } });
  type Message = { nodeGlobals: string[] } | { result: KernelSources };
  let heard: (names: string[] | undefined) => void = () => {};
  const nodeGlobals = new Promise<string[] | undefined>((resolve) => (heard = resolve));
  if (known) heard(known);
  const ready = new Promise<KernelSources>((resolve, reject) => {
    worker.on("message", (message: Message) => {
      if ("nodeGlobals" in message) heard(message.nodeGlobals);
      else resolve(message.result);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the compiling worker exited (code ${code})`)));
  });
  void ready.then(
    (result) => heard(result.nodeGlobals),
    () => heard(undefined),
  );
  return { dir, ready, nodeGlobals };
}

/**
 * The names declaration files add to the global scope: top-level declarations of scripts (not modules), and those in
 * `declare global { }` blocks, also within `declare module "x" { }`. Parsed files only, no type checker.
 */
export function globalDeclarationNames(
  api: Pick<typeof TypeScript, "isExternalModule" | "SyntaxKind" | "NodeFlags">,
  files: readonly TypeScript.SourceFile[],
): string[] {
  const { SyntaxKind, NodeFlags } = api;
  const declarationKinds = [
    SyntaxKind.FunctionDeclaration,
    SyntaxKind.ClassDeclaration,
    SyntaxKind.InterfaceDeclaration,
    SyntaxKind.TypeAliasDeclaration,
    SyntaxKind.EnumDeclaration,
  ];
  const names = new Set<string>();
  const named = (node: { name?: TypeScript.Node }) => {
    if (node.name && node.name.kind === SyntaxKind.Identifier) names.add((node.name as TypeScript.Identifier).text);
  };
  const visit = (statements: readonly TypeScript.Statement[], global: boolean): void => {
    for (const statement of statements) {
      if (statement.kind === SyntaxKind.ModuleDeclaration) {
        const module = statement as TypeScript.ModuleDeclaration;
        const body = module.body && module.body.kind === SyntaxKind.ModuleBlock ? module.body : undefined;
        if (module.flags & NodeFlags.GlobalAugmentation) {
          if (body) visit((body as TypeScript.ModuleBlock).statements, true);
        } else if (module.name.kind === SyntaxKind.StringLiteral) {
          // `declare module "buffer" { ... }`: its own names are the module's; its `global { }` blocks are not.
          if (body) visit((body as TypeScript.ModuleBlock).statements, false);
        } else if (global) named(module); // namespace NodeJS { ... }
        continue;
      }
      if (!global) continue;
      if (statement.kind === SyntaxKind.VariableStatement) {
        (statement as TypeScript.VariableStatement).declarationList.declarations.forEach(named);
      } else if (declarationKinds.includes(statement.kind)) named(statement as TypeScript.DeclarationStatement);
    }
  };
  for (const file of files) visit(file.statements, !api.isExternalModule(file));
  return [...names].sort();
}

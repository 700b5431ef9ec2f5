// Preloaded into the tslab kernels of `seamlab report` (node --import) when SEAMLAB_KERNEL_SRC names a compiled
// copy of src/ (kernel-sources.ts: CommonJS .js plus .d.ts, under .seamlab-cache/kernel-src/<key>/src). Without
// it, every kernel type-checks, emits and transpiles each of the ~100-130 project files its import cells reach
// (5-9 s of CPU a notebook). With it, the notebooks and the kernel's working directory stay as they are, and
//  - tslab's compiler sees `<root>/src/x.d.ts` (the compiled declaration) where `<root>/src/x.ts` exists: a
//    declaration file is neither type-checked (skipLibCheck) nor emitted, while cells are still checked against
//    the same types;
//  - a `require` that resolves into `<root>/src/` loads the compiled `x.js` instead.
// A file the copy lacks (a notebook importing something outside it, or no copy at all because src/ did not compile
// cleanly) is compiled from source as before.
// With SEAMLAB_KERNEL_NODE_TYPES=hidden (a notebook that names nothing of Node's: kernel-node-types.ts), tslab's
// compiler does not see @types/node: 1.3 s of parsing and binding less per kernel. The report restarts the kernel
// with them if the copy does not land, as src/ itself needs them then.
import { existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve, sep } from "node:path";

const compiled = process.env.SEAMLAB_KERNEL_SRC;
if (compiled) {
  const require = createRequire(import.meta.url);
  const sourceDir = join(process.cwd(), "src") + sep;
  const compiledDir = join(compiled, "src") + sep;
  /** The compiled counterpart of a path inside `<root>/src/`, else undefined. */
  const mapped = (path) => (path.startsWith(sourceDir) ? compiledDir + path.slice(sourceDir.length) : undefined);
  const isFile = (path) => {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  };

  // tslab compiles with its own TypeScript build; its converter reads files through this `ts.sys`.
  const tslabRequire = createRequire(require.resolve("tslab/dist/converter.js"));
  const ts = tslabRequire("@tslab/typescript-for-tslab");
  const { fileExists, readFile, watchFile } = ts.sys;
  /** For `<root>/src/x.ts`: the compiled `x.d.ts` that stands in for it, when there is one. */
  const declarationFor = (path) => {
    const target = mapped(path);
    if (target === undefined || !/\.tsx?$/.test(path)) return undefined;
    const declaration = target.endsWith(".d.ts") ? target : target.replace(/\.tsx?$/, ".d.ts");
    return existsSync(declaration) ? declaration : undefined;
  };
  ts.sys.fileExists = (path) => {
    const declaration = declarationFor(path);
    if (declaration !== undefined) return path.endsWith(".d.ts");
    return fileExists(path);
  };
  ts.sys.readFile = (path, encoding) => {
    const declaration = path.endsWith(".d.ts") ? declarationFor(path) : undefined;
    return readFile(declaration ?? path, encoding);
  };
  if (process.env.SEAMLAB_KERNEL_NODE_TYPES === "hidden") {
    const nodeTypes = /[\\/]node_modules[\\/]@types[\\/]node([\\/]|$)/;
    const { directoryExists, getDirectories } = ts.sys;
    const fileExistsNow = ts.sys.fileExists;
    const readFileNow = ts.sys.readFile;
    ts.sys.fileExists = (path) => !nodeTypes.test(path) && fileExistsNow(path);
    ts.sys.directoryExists = (path) => !nodeTypes.test(path) && directoryExists(path);
    ts.sys.readFile = (path, encoding) => (nodeTypes.test(path) ? undefined : readFileNow(path, encoding));
    // The automatic type directives come from listing node_modules/@types.
    ts.sys.getDirectories = (path) =>
      getDirectories(path).filter((name) => !nodeTypes.test(`${path.replace(/[\\/]$/, "")}/${name}`));
  }
  // The compiled copy does not change during a run (its folder name is the hash of the sources).
  ts.sys.watchFile = (path, ...rest) =>
    declarationFor(path) !== undefined ? { close() {} } : watchFile(path, ...rest);

  const Module = require("node:module");
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, parent, ...rest) {
    if (typeof request === "string" && (request.startsWith(".") || request.startsWith(sep))) {
      const from = parent && typeof parent.filename === "string" ? dirname(parent.filename) : process.cwd();
      const target = mapped(resolve(from, request));
      if (target !== undefined) {
        for (const candidate of [target, `${target}.js`])
          if (candidate.endsWith(".js") && isFile(candidate)) return candidate;
      }
    }
    return resolveFilename.call(this, request, parent, ...rest);
  };
}

/**
 * Lets tslab load project modules that import each other in a cycle.
 *
 * tslab 1.0.22 compiles the project files a cell imports and loads them itself ("side outputs"), but it caches
 * a module only after its code has run. A cycle (today `splitters/window` <-> `splitters/tokens`) then recompiles
 * the same file forever: "RangeError: Maximum call stack size exceeded" on the import cell. Node's own loader
 * caches a module before running it and hands a cycle the partial `exports`; this guard does the same for
 * tslab's loader: a file that is already being compiled gets that first module's `exports` instead of a second
 * compilation. It changes nothing outside tslab, where a file is never compiled twice at once.
 *
 * Import it first in a notebook: `import "./src/study/tslab-cycles";`.
 */
import * as nodeModule from "node:module";

type Compile = (this: { exports: unknown }, content: string, filename: string) => unknown;
// `Module` is the CommonJS loader class (`require("module").Module === require("module")`).
const proto = ((nodeModule as unknown as { Module: unknown }).Module as { prototype: { _compile: Compile & { seamlabCycleGuard?: boolean } } }).prototype;

if (!proto._compile.seamlabCycleGuard) {
  const original = proto._compile;
  const compiling = new Map<string, { exports: unknown }>();
  const guarded: Compile & { seamlabCycleGuard?: boolean } = function (this: { exports: unknown }, content: string, filename: string) {
    const first = compiling.get(filename);
    if (first) {
      this.exports = first.exports;
      return undefined;
    }
    compiling.set(filename, this);
    try {
      return original.call(this, content, filename);
    } finally {
      compiling.delete(filename);
    }
  };
  guarded.seamlabCycleGuard = true;
  proto._compile = guarded;
}

export {};

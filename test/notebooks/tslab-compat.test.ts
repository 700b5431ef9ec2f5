/**
 * Notebooks import `src/` through tslab 1.0.22, which compiles with its own TypeScript 5.0 (non-strict, node10
 * resolution) and refuses to run a cell on any diagnostic in a project file it reaches, which the project's strict
 * `tsc` does not see. (It also cannot load an import cycle: `test/imports.test.ts` forbids cycles in all of src/.)
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readdirSync, statSync, mkdtempSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** Folders notebooks never reach (plain Node ESM code run by tsx). */
const notebookUnreachable = ["src/report/", "src/cli/"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const notebookModules = sourceFiles(join(root, "src")).filter(
  (file) => !notebookUnreachable.some((prefix) => relative(root, file).startsWith(prefix)),
);

test("the modules notebooks can reach compile under tslab's own TypeScript 5.0 settings", () => {
  const ts = createRequire(join(root, "package.json"))("@tslab/typescript-for-tslab");
  const outDir = mkdtempSync(join(tmpdir(), "seamlab-tslab-"));
  try {
    // The options tslab's converter passes (node_modules/tslab/dist/converter.js), declarations included.
    const program = ts.createProgram(notebookModules, {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      esModuleInterop: true,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts"],
      declaration: true,
      emitDeclarationOnly: true,
      outDir,
      experimentalDecorators: true,
      resolveJsonModule: true,
      types: ["node"],
    });
    const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics]
      .filter((d: { file?: { fileName: string } }) => d.file && !d.file.fileName.includes("/node_modules/"))
      .map((d: { file: { fileName: string; getLineAndCharacterOfPosition(p: number): { line: number } }; start: number; messageText: unknown }) =>
        `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
      );
    assert.deepEqual(diagnostics, []);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

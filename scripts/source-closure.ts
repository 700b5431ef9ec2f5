// The project files a module reaches through relative imports (static, type-only, re-exports and literal dynamic
// `import("./x")`), found with TypeScript's own import scanner. test/imports.test.ts checks src/'s layering with
// it; `simulate:elbow` records the simulation's closure, so a stored run can tell when its code has changed.
import { readFileSync, statSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

/** Relative module specifiers in a source text, found by TypeScript's own scanner (imports, exports, `import()`). */
export function importSpecifiers(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith("."));
}

/** Resolves a relative specifier from `file` to a source file; a folder import counts as unresolved. */
export function resolveImport(file: string, specifier: string): string | undefined {
  const base = resolve(dirname(file), specifier);
  for (const candidate of [base, `${base}.ts`]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return undefined;
}

/** `entries` and every file they reach by relative imports, as paths relative to `root`, sorted. */
export function sourceClosure(root: string, entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, "utf8"))) {
      const target = resolveImport(file, specifier);
      if (target !== undefined) visit(target);
    }
  };
  for (const entry of entries) visit(resolve(root, entry));
  return [...seen].map((file) => relative(root, file)).sort();
}

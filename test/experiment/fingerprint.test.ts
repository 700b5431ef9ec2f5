import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { codeFingerprint, ROW_SOURCE_FOLDERS } from "../../src/experiment/fingerprint";

function fakeProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "seamlab-fingerprint-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const base = {
  "package.json": JSON.stringify({ name: "seamlab", dependencies: { "js-tiktoken": "1.0.21" } }),
  "src/splitters/window.ts": "export const a = 1;",
  "src/charts/line.ts": "export const b = 1;",
};

test("the code fingerprint changes when a splitter or a dependency pin changes", () => {
  const a = codeFingerprint(fakeProject(base));
  assert.equal(a, codeFingerprint(fakeProject(base)), "same code, same fingerprint");
  assert.notEqual(a, codeFingerprint(fakeProject({ ...base, "src/splitters/window.ts": "export const a = 2;" })));
  assert.notEqual(
    a,
    codeFingerprint(
      fakeProject({
        ...base,
        "package.json": JSON.stringify({ name: "seamlab", dependencies: { "js-tiktoken": "1.0.22" } }),
      }),
    ),
  );
  assert.notEqual(a, codeFingerprint(fakeProject({ ...base, "src/measure/new.ts": "x" })));
});

test("the code fingerprint ignores presentation code (charts) so editing a chart keeps the cache", () => {
  assert.equal(
    codeFingerprint(fakeProject(base)),
    codeFingerprint(fakeProject({ ...base, "src/charts/line.ts": "export const b = 2;" })),
  );
});

test("the real project has a fingerprint", () => {
  assert.match(codeFingerprint(), /^[0-9a-f]{64}$/);
});

test("every folder the row code reaches is part of the fingerprint, so moving code there still invalidates rows", () => {
  const src = fileURLToPath(new URL("../../src", import.meta.url));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of ts.preProcessFile(readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!imported.fileName.startsWith(".")) continue;
      const base = resolve(dirname(file), imported.fileName);
      const target = [base, `${base}.ts`].find((candidate) => {
        try {
          return statSync(candidate).isFile();
        } catch {
          return false;
        }
      });
      if (target) visit(target);
    }
  };
  visit(join(src, "experiment", "worker.ts"));
  visit(join(src, "experiment", "rows.ts"));
  const folders = new Set([...seen].map((file) => relative(src, file).split("/")[0]));
  assert.deepEqual(
    [...folders].filter((folder) => !ROW_SOURCE_FOLDERS.includes(folder)),
    [],
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { projectRoot, readPackageJson, seamlabVersion } from "../../src/core/project";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

test("the project root is this checkout, and its version and dependencies are package.json's", () => {
  assert.equal(projectRoot(), root);
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  assert.equal(seamlabVersion(), manifest.version);
  assert.deepEqual(readPackageJson().dependencies, manifest.dependencies);
});

test("seamlabVersion reads the package.json of the root it is given", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-project-"));
  try {
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "seamlab", version: "9.8.7" }));
    assert.equal(seamlabVersion(dir), "9.8.7");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeTinyModel } from "../embed/tiny-model";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

function seamlab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return seamlabIn(root, ...args);
}

function seamlabIn(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [join(root, "bin/seamlab.js"), ...args], { cwd, encoding: "utf8" });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-embed-"));
  mkdirSync(join(dir, "corpus"));
  const cats = "The cat sat on the mat. A cat purred. Cats sleep all day. ".repeat(6);
  const bonds = "Bond yields rose. The bond market fell. Investors sold bonds. ".repeat(6);
  writeFileSync(join(dir, "corpus/a.md"), `${cats}\n\n${bonds}\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test("embed reports the honest lsa name and neighbour cosine against real overlap, as JSON", () => {
  const result = seamlab(
    "embed",
    "--corpus",
    join(dir, "corpus"),
    "--splitter",
    "window",
    "--size",
    "120",
    "--overlap",
    "40",
    "--embed-dims",
    "4",
    "--json",
  );
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.match(report.embedder.name, /^lsa-4 \(TF-IDF\+SVD fitted on this corpus; not a neural model\)$/);
  assert.equal(report.embedder.maxInputTokens, "none");
  assert.equal(report.neighbours.pairs, report.chunks - 1);
  assert.equal(report.neighbours.overlappingPairs, report.chunks - 1, "a 120/40 window overlaps at every seam");
  assert.equal(report.cache, null);
});

test("embed refuses an openai-compatible embedder without a URL, naming the flag", () => {
  const result = seamlab("embed", "--corpus", join(dir, "corpus"), "--embedder", "openai-compatible");
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /--embedder openai-compatible needs --embed-url URL/);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
});

test("embed refuses a transformers embedder whose model folder is missing", () => {
  const result = seamlab(
    "embed",
    "--corpus",
    join(dir, "corpus"),
    "--embedder",
    "transformers",
    "--model-dir",
    join(dir, "no-model"),
  );
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /--model-dir .*no-model: no such folder/);
});

test("embed runs a local transformers model and serves the second run from the vector cache", () => {
  const model = join(dir, "tiny-model");
  writeTinyModel(model);
  const args = [
    "embed",
    "--corpus",
    join(dir, "corpus"),
    "--splitter",
    "window",
    "--size",
    "40",
    "--overlap",
    "0",
    "--embedder",
    "transformers",
    "--model-dir",
    model,
    "--json",
  ];
  const first = seamlabIn(dir, ...args);
  assert.equal(first.status, 0, first.stderr);
  const a = JSON.parse(first.stdout);
  assert.equal(a.embedder.name, "tiny-model (local ONNX, fp32, mean pooling)");
  assert.equal(a.cache.misses, a.chunks);
  assert.ok(a.inputs.overLimit > 0, "40-char windows exceed the tiny model's 8 tokens, and that is reported");
  const second = JSON.parse(seamlabIn(dir, ...args).stdout);
  assert.deepEqual([second.cache.hits, second.cache.misses], [a.chunks, 0]);
  assert.deepEqual(second.neighbours, a.neighbours, "cached vectors give identical results");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const seamlab = (...args: string[]) =>
  spawnSync(process.execPath, ["bin/seamlab.js", ...args], { cwd: root, encoding: "utf8" });

test("retrieve with the dense and hybrid retrievers names the lsa embedder honestly in its JSON", () => {
  for (const retriever of ["dense", "hybrid"]) {
    const out = seamlab(
      "retrieve",
      "--corpus",
      "fastify-docs",
      "--splitter",
      "recursive",
      "--size",
      "1000",
      "--overlap",
      "0",
      "--retriever",
      retriever,
      "--embed-dims",
      "32",
      "--json",
    );
    assert.equal(out.status, 0, out.stderr);
    const json = JSON.parse(out.stdout);
    assert.match(json.retriever, /lsa-32 \(TF-IDF\+SVD fitted on this corpus; not a neural model\)/);
    assert.ok(json.queries > 50, `expected the fastify docs to give header queries, got ${json.queries}`);
    assert.ok(json.hitRate > 0 && json.hitRate <= 1);
    assert.ok(json.hitRateCI.low <= json.hitRate && json.hitRate <= json.hitRateCI.high);
  }
});

test("retrieve with a transformers embedder but no model folder names the missing flag", () => {
  const out = seamlab("retrieve", "--corpus", "fastify-docs", "--retriever", "dense", "--embedder", "transformers");
  assert.notEqual(out.status, 0);
  assert.match(out.stderr, /--model-dir/);
  assert.doesNotMatch(out.stderr, /\n\s+at /, "no stack trace");
});

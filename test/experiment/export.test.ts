import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";
import { runOverlapSweep } from "../../src/experiment/sweep";
import { chosenExport, rerunArgv, withoutFlags, type ChosenExport } from "../../src/experiment/export";
import { exportTarget, readChosenExport, writeChosenExport } from "../../src/experiment/export-file";
import { compareExports } from "../../src/experiment/export-compare";
import { hashDocs } from "../../src/experiment/cache";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";

async function tinyExport(dir: string, argv: string[] = []): Promise<ChosenExport> {
  const inputs = loadCorpusAndQueries({ corpus: dir, queries: "headers" });
  const result = await runOverlapSweep(
    { docs: inputs.docs, queries: inputs.queries },
    { splitter: "recursive", size: 60, overlaps: [0, 20], ks: [1] },
    { workers: 0, cacheDir: null, quiet: true, margin: 0.05 },
  );
  const exported = chosenExport({ argv, inputs, result, version: "9.9.9", commit: null });
  assert.ok(exported);
  return exported;
}

test("an export stamps the corpus and query hashes, the margin, the verdict and the chosen config", async () => {
  const dir = tinyCorpusFolder();
  try {
    const argv = ["--corpus", dir, "--splitter", "recursive", "--size", "60", "--overlaps", "0,20", "--ks", "1"];
    const exported = await tinyExport(dir, [
      ...argv,
      "--margin",
      "5",
      "--workers",
      "0",
      "--json",
      "--export",
      "x.json",
    ]);
    assert.equal(exported.seamlabExport, "seamlab chosen config");
    assert.equal(exported.corpus.hash, hashDocs(loadCorpusAndQueries({ corpus: dir }).docs));
    assert.equal(exported.queries.source, "headers");
    assert.equal(exported.queries.count, 3);
    assert.equal(exported.margin, 0.05);
    assert.ok(["decided", "leaning", "undecided"].includes(exported.verdict.state));
    assert.equal(exported.chosen.splitter.splitter, "recursive");
    assert.ok([0, 20].includes(exported.chosen.splitter.overlap));
    assert.deepEqual(exported.rerun.argv, [...argv, "--margin", "5", "--queries", "headers"]);
    assert.equal(exported.seamlab.commit, null);
    assert.deepEqual(Object.keys(exported.snippets), ["langchainJs", "langchainPython", "llamaIndex"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the re-run flags drop presentation and machine flags, pin defaults, and replace --budget by its sample", () => {
  assert.deepEqual(
    withoutFlags(["--json", "--workers=2", "--cache-dir", "/tmp/c", "--size", "500", "--quiet"], {
      json: 0,
      workers: 1,
      "cache-dir": 1,
      quiet: 0,
    }),
    ["--size", "500"],
  );
  const inputs = { corpus: "fastify-docs", source: { kind: "headers" } } as Parameters<typeof rerunArgv>[1];
  assert.deepEqual(rerunArgv(["--budget", "5", "--overlaps", "0,100"], inputs, 0.015, 700), [
    "--overlaps",
    "0,100",
    "--query-sample",
    "700",
    "--margin",
    "1.5",
    "--queries",
    "headers",
    "--corpus",
    "fastify-docs",
  ]);
  // A context budget the sweep chose by default (several sizes) is pinned; one given stays as given.
  const budget = { amount: 2500, unit: "chars" as const };
  assert.deepEqual(rerunArgv(["--sizes", "500,1000"], inputs, 0.01, undefined, budget).slice(2, 6), [
    "--margin",
    "1",
    "--context-budget",
    "2500c",
  ]);
  assert.deepEqual(rerunArgv(["--context-budget", "1200t"], inputs, 0.01, undefined, budget).slice(0, 2), [
    "--context-budget",
    "1200t",
  ]);
  assert.equal(rerunArgv(["--context-budget", "1200t"], inputs, 0.01, undefined, budget).length, 8);
});

test("an export is read back whole, and a file that is not one is refused with its name and the field", async () => {
  const dir = tinyCorpusFolder();
  const out = mkdtempSync(join(tmpdir(), "seamlab-export-"));
  try {
    const exported = await tinyExport(dir);
    const file = join(out, "chosen.json");
    writeChosenExport(exportTarget(file, false)!, exported);
    assert.deepEqual(readChosenExport(file), JSON.parse(JSON.stringify(exported)));
    const write = (name: string, text: string) => {
      writeFileSync(join(out, name), text);
      return join(out, name);
    };
    assert.throws(() => readChosenExport(write("notes.json", "hello")), /notes\.json is not JSON/);
    assert.throws(() => readChosenExport(write("other.json", '{"a": 1}')), /other\.json is not a seamlab export/);
    const damaged = { ...exported, corpus: { ...exported.corpus, hash: 7 } };
    assert.throws(
      () => readChosenExport(write("damaged.json", JSON.stringify(damaged))),
      /field "corpus\.hash" is missing or not a string/,
    );
    const edited = { ...exported, margin: 0.02 };
    assert.throws(
      () => readChosenExport(write("edited.json", JSON.stringify(edited))),
      /"margin" is 0\.02 but rerun\.argv runs with a margin of 0\.05/,
    );
    assert.throws(() => readChosenExport(join(out, "missing.json")), /missing\.json does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test("an export never replaces a file without --force, nor with it a file seamlab did not write", async () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-export-"));
  try {
    const notes = join(out, "notes.json");
    writeFileSync(notes, '{"mine": true}');
    assert.throws(() => exportTarget(notes, false), /already exists; pass --force/);
    assert.throws(() => exportTarget(notes, true), /is not a seamlab export .* even with --force/);
    assert.equal(readFileSync(notes, "utf8"), '{"mine": true}');
    assert.throws(() => exportTarget(out, true), /is a folder/);
    assert.throws(() => exportTarget(join(out, "no", "such.json"), false), /does not exist/);
    assert.throws(() => exportTarget(undefined, true), /--force only applies to --export/);
    const dir = tinyCorpusFolder();
    try {
      const file = join(out, "chosen.json");
      writeChosenExport(exportTarget(file, false)!, await tinyExport(dir));
      assert.throws(() => exportTarget(file, false), /already exists/);
      assert.equal(exportTarget(file, true)?.force, true, "an earlier export is replaced with --force");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("a re-run moves when the chosen config or the verdict state changes, and only notes a changed corpus", async () => {
  const dir = tinyCorpusFolder();
  try {
    const before = await tinyExport(dir);
    assert.deepEqual(compareExports(before, before), { moved: false, moves: [], notes: [] });
    const changedCorpus = { ...before, corpus: { ...before.corpus, hash: "f".repeat(64), documents: 3 } };
    const held = compareExports(before, changedCorpus);
    assert.equal(held.moved, false);
    assert.match(held.notes[0], /^corpus changed since export \(hash \w{12} → ffffffffffff; 2 → 3 documents/);
    const otherOverlap = before.chosen.splitter.overlap === 0 ? 20 : 0;
    const moved = compareExports(before, {
      ...before,
      chosen: { ...before.chosen, splitter: { ...before.chosen.splitter, overlap: otherOverlap } },
    });
    assert.equal(moved.moved, true);
    assert.match(moved.moves[0], new RegExp(`^chosen config: recursive 60/${before.chosen.splitter.overlap} chars`));
    const otherState = before.verdict.state === "decided" ? "undecided" : "decided";
    const weakened = compareExports(before, { ...before, verdict: { ...before.verdict, state: otherState } });
    assert.deepEqual(weakened.moves.slice(0, 1), [`verdict: ${before.verdict.state} → ${otherState}`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

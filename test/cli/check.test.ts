import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RECOMMENDATION_MOVED } from "../../src/cli/check";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { seamlab } from "./spawn-cli";

// As a user runs them (check starts a sweep of its own, and in-process stdout capture would also catch the test
// runner's own reports).
const sweep = (args: string[]) => seamlab(["sweep", ...args]);
const check = (args: string[]) => seamlab(["check", ...args]);

const sweepArgs = (corpus: string) => [
  "--corpus",
  corpus,
  "--splitter",
  "recursive",
  "--size",
  "60",
  "--overlaps",
  "0,20",
  "--ks",
  "1",
  "--margin",
  "5",
  "--workers",
  "0",
  "--quiet",
  "--no-cache",
];

const exportTo = (corpus: string, file: string, extra: string[] = []) =>
  sweep([...sweepArgs(corpus), "--export", file, ...extra]);

/** A refusal: exit 2, the message on stderr, nothing on stdout. */
function refused(result: ReturnType<typeof seamlab>, message: RegExp): void {
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, message);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
}

test("sweep --export refuses, before any work, a second verdict or a file it may not replace", () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-check-"));
  try {
    const file = join(out, "chosen.json");
    writeFileSync(file, "my notes");
    // The corpus does not exist: a refusal naming the export shows it came first.
    refused(exportTo("/no/such/corpus", file), /already exists; pass --force/);
    refused(exportTo("/no/such/corpus", file, ["--force"]), /not a seamlab export/);
    assert.equal(readFileSync(file, "utf8"), "my notes");
    refused(
      sweep(["--splitter", "recursive,window", "--export", join(out, "two.json")]),
      /--export writes one verdict, but --splitter recursive,window gives one per value/,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("check exits 0 when the exported choice holds on a changed corpus, and 3 when the choice moved", () => {
  const corpus = tinyCorpusFolder();
  const out = mkdtempSync(join(tmpdir(), "seamlab-check-"));
  try {
    const file = join(out, "chosen.json");
    const exported = exportTo(corpus, file);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stderr, /seamlab: exported overlap \d+ \(\w+\) to /);
    const before = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(before.corpus.spec, corpus);

    const holds = check([file]);
    assert.equal(holds.status, 0, holds.stderr);
    assert.match(holds.stdout, /^holds: recursive 60\/\d+ chars, top 1 by bm25/);
    assert.doesNotMatch(holds.stderr, /exported/, "the re-run's temporary export is not mentioned");

    // A document with no headings (so no new queries) and words no query shares: the corpus hash changes.
    writeFileSync(join(corpus, "colophon.md"), "Typeset in lowercase letters by a quiet press.\n");
    const changed = check([file, "--json"]);
    assert.equal(changed.status, 0, changed.stderr);
    const report = JSON.parse(changed.stdout);
    assert.equal(report.holds, true);
    assert.match(report.notes.join("\n"), /corpus changed since export \(hash \w{12} → \w{12}; 2 → 3 documents/);

    // An export whose choice is not what the sweep picks: the recommendation moved.
    const other = before.chosen.splitter.overlap === 0 ? 20 : 0;
    const tampered = {
      ...before,
      chosen: { ...before.chosen, splitter: { ...before.chosen.splitter, overlap: other } },
    };
    const moved = join(out, "moved.json");
    writeFileSync(moved, JSON.stringify(tampered));
    const result = check([moved]);
    assert.equal(result.status, RECOMMENDATION_MOVED, result.stderr);
    assert.match(
      result.stdout,
      /^MOVED: the recommendation in .*moved\.json no longer holds\n {2}chosen config: recursive 60\//,
    );
    assert.match(result.stdout, /to accept the new one: seamlab sweep --corpus .* --export .*moved\.json --force\n/);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test("check refuses bad input before any work: not an export, another corpus, a stray --same-corpus", () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-check-"));
  const corpus = tinyCorpusFolder();
  try {
    const notes = join(out, "notes.json");
    writeFileSync(notes, '{"chosen": "overlap 100"}');
    refused(check([notes]), /notes\.json is not a seamlab export/);
    refused(check([]), /check needs one exported file/);
    const file = join(out, "chosen.json");
    assert.equal(exportTo(corpus, file).status, 0);
    refused(
      check([file, "--corpus", "moby-dick"]),
      /was exported from corpus ".*" \(hash \w{12}\), but --corpus names "moby-dick".*--same-corpus/,
    );
    refused(check([file, "--same-corpus"]), /--same-corpus goes with --corpus/);
  } finally {
    rmSync(corpus, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test("a chosen.json that names its corpus by folder name, as a report's does, checks against that folder's path", () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-check-name-"));
  try {
    const corpus = join(out, "book");
    cpSync(tinyCorpusFolder(), corpus, { recursive: true });
    const file = join(out, "chosen.json");
    // exported from the corpus's parent folder, so the export names it "book", as a report names it
    const exported = seamlab(["sweep", ...sweepArgs("book"), "--export", file], { cwd: out });
    assert.equal(exported.status, 0, exported.stderr);
    assert.equal(JSON.parse(readFileSync(file, "utf8")).corpus.spec, "book");
    const result = check([file, "--corpus", corpus]);
    assert.equal(result.status, 0, result.stderr);
    refused(check([file, "--corpus", tinyCorpusFolder()]), /was exported from corpus "book"/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { run as retrieve } from "../../src/cli/retrieve";
import { captureStdout } from "../helpers/capture-stdout";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";

test("retrieve --json on header queries reports hits, hit rate with CI, distinct passages and overlap share", async () => {
  const dir = tinyCorpusFolder();
  try {
    const { code, out } = await captureStdout(() =>
      retrieve(["--corpus", dir, "--splitter", "recursive", "--size", "60", "--overlap", "0", "--k", "2", "--json"]),
    );
    assert.equal(code, 0);
    const report = JSON.parse(out);
    // three ## headings, each with prose; the gold sentences are short enough to sit inside one 60-char chunk
    assert.equal(report.queries, 3);
    assert.equal(report.queriesFrom.kind, "headers");
    assert.equal(typeof report.hits, "number");
    assert.equal(report.hitRate, report.hits / 3);
    assert.ok(report.hitRateCI.low <= report.hitRate && report.hitRate <= report.hitRateCI.high);
    assert.ok(report.meanDistinct > 0 && report.meanDistinct <= 2);
    assert.equal(report.queriesWithOverlappingTopK, 0); // overlap 0: chunks never share text
    assert.equal(report.indexRatio <= 1, true);
    // the question about tail sampling finds its own paragraph
    assert.ok(report.hits >= 2, `expected at least 2 hits, got ${report.hits}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("retrieve on a labelled CSV adds span recall, precision and IoU, merged and Chroma-style", async () => {
  const dir = tinyCorpusFolder();
  try {
    const { out } = await captureStdout(() =>
      retrieve([
        "--corpus",
        join(dir, "*.md"),
        "--queries",
        join(dir, "questions.csv"),
        "--splitter",
        "recursive",
        "--size",
        "300",
        "--overlap",
        "0",
        "--k",
        "1",
        "--json",
      ]),
    );
    const report = JSON.parse(out);
    assert.equal(report.queries, 1);
    assert.equal(report.hits, 1);
    assert.equal(report.spanRecall, 1);
    // the one retrieved chunk holds the answer and more text: 0 < precision < 1, and IoU = precision when recall is 1
    assert.ok(report.spanPrecision > 0 && report.spanPrecision < 1);
    assert.equal(report.iou, report.spanPrecision);
    assert.equal(report.chroma.iou, report.iou);
    assert.match(report.spanMetrics, /counts it twice/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("retrieve rejects a bad --k and an unknown retriever by naming them", async () => {
  const dir = tinyCorpusFolder();
  try {
    await assert.rejects(
      retrieve(["--corpus", dir, "--splitter", "recursive", "--k", "0"]),
      /--k must be a whole number from 1 to 10,000 chunks; got "0"/,
    );
    await assert.rejects(
      retrieve(["--corpus", dir, "--splitter", "recursive", "--size", "100", "--overlap", "0", "--retriever", "nope"]),
      /unknown retriever "nope"/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("retrieve prints byte-identical JSON on a second run", async () => {
  const dir = tinyCorpusFolder();
  try {
    const args = [
      "--corpus",
      dir,
      "--splitter",
      "window",
      "--size",
      "50",
      "--overlap",
      "10",
      "--k",
      "3",
      "--json",
      "--per-doc",
    ];
    const first = await captureStdout(() => retrieve(args));
    const second = await captureStdout(() => retrieve(args));
    assert.equal(first.out, second.out);
    assert.ok(!("timings" in JSON.parse(first.out)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { run as compare } from "../../src/cli/compare";
import { captureStdout } from "../helpers/capture-stdout";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";

test("compare --json pairs two configs on the same queries", async () => {
  const dir = tinyCorpusFolder();
  try {
    const { code, out } = await captureStdout(() =>
      compare(["--corpus", dir, "--a", "recursive:60:0", "--b", "recursive:20:0", "--k", "1", "--json"]),
    );
    assert.equal(code, 0);
    const report = JSON.parse(out);
    assert.equal(report.queries, 3);
    assert.equal(report.wins + report.losses + report.ties, 3);
    assert.equal(report.diff, report.hitRateA - report.hitRateB);
    assert.ok(report.mcnemarP > 0 && report.mcnemarP <= 1);
    assert.ok(report.diffCI.low <= report.diff && report.diff <= report.diffCI.high);
    await assert.rejects(
      compare(["--corpus", dir, "--a", "recursive:60", "--b", "recursive:20:0"]),
      /--a must look like splitter:size:overlap/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

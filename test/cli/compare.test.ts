import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run as compare } from "../../src/cli/compare";

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const original = process.stdout.write.bind(process.stdout);
  let out = "";
  (process.stdout as { write: unknown }).write = (chunk: string | Uint8Array) => {
    out += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  };
  try {
    return { code: await fn(), out };
  } finally {
    (process.stdout as { write: unknown }).write = original;
  }
}

function corpusFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-retrieve-"));
  writeFileSync(
    join(dir, "sampling.md"),
    "# Sampling\n\n## How does tail sampling work?\n\nTail sampling decides after the whole trace is complete. It keeps slow traces.\n\n" +
      "## Head sampling\n\nHead sampling decides at the root span. It is cheap.\n",
  );
  writeFileSync(
    join(dir, "exporters.md"),
    "## Which exporter should I use?\n\nUse the OTLP exporter for new setups. Others exist.\n",
  );
  writeFileSync(
    join(dir, "questions.csv"),
    "question,answer_span\nwhen does tail sampling decide?,after the whole trace is complete\n",
  );
  return dir;
}

test("compare --json pairs two configs on the same queries", async () => {
  const dir = corpusFolder();
  try {
    const { code, out } = await capture(() =>
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

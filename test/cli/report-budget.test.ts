// `seamlab report --budget` / `--max-memory` through the real CLI: bad values and a budget too small for even the
// least work stop before any kernel starts, naming the flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertUserError, seamlab } from "./spawn-cli";
import { fastifyGuides } from "../helpers/corpora";

test("--max-memory is checked before any work and needs --budget", () => {
  assertUserError(
    seamlab(["report", "--corpus", fastifyGuides, "--budget", "5", "--max-memory", "lots", "--out", "/nonexistent/x"]),
    /--max-memory must be a number of gigabytes/,
  );
  assertUserError(
    seamlab(["report", "--corpus", fastifyGuides, "--max-memory", "4", "--out", "/nonexistent/x"]),
    /--max-memory needs --budget/,
  );
});

test("a budget too small for even the least work is refused after the pilot, before any kernel, naming --budget", () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-report-budget-"));
  try {
    const run = seamlab(["report", "--corpus", fastifyGuides, "--only", "03", "--budget", "0.01", "--out", out]);
    assertUserError(
      run,
      /--budget 0\.01: too small for this corpus .*: even the least work of notebook 03 needs about/,
    );
    assert.match(run.stderr, /budget 0\.01 min, work per notebook \(\d at a time, estimated .*does NOT fit\)/);
    // The refusal gives the least work the same estimate as the plan line, in the same words.
    const planned = /03 reduced: .*?\(~([\d.]+ (?:s|min)) of ~/.exec(run.stderr);
    assert.ok(planned, run.stderr);
    assert.match(run.stderr, new RegExp(`notebook 03 needs about ${planned[1].replace(".", "\\.")}, the run about `));
    assert.doesNotMatch(run.stderr, /running 03/);
    assert.deepEqual(readdirSync(out), [], "nothing was written");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("a notebook whose kernel alone is over --max-memory is not run even when the budget fits it, and its page says so", () => {
  const out = mkdtempSync(join(tmpdir(), "seamlab-report-memory-"));
  try {
    // 0.5 GB leaves less than a kernel's base (0.3 GB) once this process holds its pilot: 05 cannot run, however
    // long the budget
    const run = seamlab([
      "report",
      "--corpus",
      fastifyGuides,
      "--only",
      "05",
      "--budget",
      "30",
      "--max-memory",
      "0.5",
      "--out",
      out,
      "--force",
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /max memory 0\.50 GB: .*not run, each kernel alone over the -?[\d.]+ GB left: 05 /);
    assert.match(run.stderr, /05-labelled-eval: not run under the budget/);
    assert.doesNotMatch(run.stderr, /running 05/);
    const page = readdirSync(out).find((name) => name.startsWith("05") && name.endsWith(".html"));
    assert.ok(page, readdirSync(out).join(", "));
    assert.match(readFileSync(join(out, page), "utf8"), /not run<\/strong>: its kernel would hold about/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

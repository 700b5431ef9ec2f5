// `seamlab report --budget` / `--max-memory` through the real CLI: bad values and a budget too small for even the
// least work stop before any kernel starts, naming the flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
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

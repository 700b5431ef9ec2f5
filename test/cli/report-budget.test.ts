// `seamlab report --budget` / `--max-memory` through the real CLI: bad values and a budget too small for even the
// least work stop before any kernel starts, naming the flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { seededRandom } from "../../src/core/random";
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
  const dir = mkdtempSync(join(tmpdir(), "seamlab-report-memory-"));
  const corpus = join(dir, "corpus");
  const out = join(dir, "out");
  try {
    // About 6 M characters of seeded markdown (titled sections of sentences): notebook 03's kernel at its least work
    // is estimated at its 0.3 GB base plus 0.55 GB, more than --max-memory 0.5 leaves beside this process, however
    // long the budget (06's least work reads a document sample now, and fits)
    const random = seededRandom(6);
    const word = () => `w${Math.floor(random() * random() * 3000).toString(36)}`;
    const sentence = () => `${Array.from({ length: 8 + Math.floor(random() * 12) }, word).join(" ")}.`;
    mkdirSync(corpus);
    for (let doc = 0; doc < 400; doc++) {
      const sections = Array.from({ length: 20 }, () => {
        const paragraphs = Array.from({ length: 3 }, () => Array.from({ length: 4 }, sentence).join(" "));
        return `## ${word()} ${word()} ${word()}\n\n${paragraphs.join("\n\n")}\n`;
      });
      writeFileSync(join(corpus, `doc-${doc}.md`), `# ${word()} ${word()}\n\n${sections.join("\n")}`);
    }
    const run = seamlab([
      "report",
      "--corpus",
      corpus,
      "--only",
      "03",
      "--budget",
      "60",
      "--max-memory",
      "0.5",
      "--out",
      out,
    ]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /max memory 0\.50 GB: .*not run, each kernel alone over the [\d.]+ GB left: 03 /);
    assert.match(run.stderr, /03-overlap-sweep: not run under the budget/);
    // validated before expensive work: no retrieval pilot for a notebook that cannot run
    assert.match(run.stderr, /every retrieval notebook's kernel alone is over --max-memory: no retrieval pilot/);
    assert.doesNotMatch(run.stderr, /running 03/);
    const page = readdirSync(out).find((name) => name.startsWith("03") && name.endsWith(".html"));
    assert.ok(page, readdirSync(out).join(", "));
    assert.match(readFileSync(join(out, page), "utf8"), /not run<\/strong>: its kernel would hold about/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

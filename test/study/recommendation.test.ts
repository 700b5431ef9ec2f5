import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadRetrievalInputs } from "../../src/study/inputs";
import { runStudySweeps } from "../../src/study/sweep";
import {
  exposureText,
  settleCommand,
  sweepArgv,
  sweepExposure,
  sweepRecommendation,
} from "../../src/study/recommendation";
import { seamlab } from "../cli/spawn-cli";

/** A small corpus of sections under `##`/`###` headings, seeded text, so the sweep has something to decide. */
function writeCorpus(dir: string): void {
  const words = ["alpha", "bravo", "delta", "omega", "sigma", "kappa", "theta", "gamma", "lambda", "zeta"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const sentence = (topic: string) =>
    `The ${topic} ${Array.from({ length: 12 }, () => words[next() % words.length]).join(" ")} ends here.`;
  for (let f = 0; f < 12; f++) {
    const parts = [`# File ${f}`];
    for (let s = 0; s < 6; s++) {
      const topic = `topic${f}x${s}`;
      parts.push(
        `${s % 2 ? "###" : "##"} Heading ${topic}`,
        Array.from({ length: 5 }, () => sentence(topic)).join(" "),
      );
      parts.push(Array.from({ length: 4 }, () => sentence(`filler${next() % 50}`)).join(" "));
    }
    writeFileSync(join(dir, `file-${f}.md`), parts.join("\n\n") + "\n");
  }
}

const settings = (corpus: string) => ({
  corpus,
  splitter: "window",
  size: 300,
  overlaps: [0, 50, 100],
  k: 3,
  margin: 0.01,
  headingLevels: [2, 3],
});

test("the report's recommendation is the CLI sweep's verdict on the same corpus, and carries its export", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-rec-"));
  const cache = mkdtempSync(join(tmpdir(), "seamlab-rec-cache-"));
  try {
    writeCorpus(dir);
    const s = settings(dir);
    const inputs = loadRetrievalInputs(dir, undefined, { headingLevels: s.headingLevels });
    const [result] = await runStudySweeps(inputs, { splitters: [s.splitter], ...s });
    const exposure = await sweepExposure(inputs, result, s.margin);
    const { payload } = await sweepRecommendation(inputs, result, s, {}, exposure);
    const decision = result.curves[0].decision;
    assert.equal(payload.state, decision.verdict);
    assert.match(
      payload.action,
      new RegExp(`^window, 300 chars, overlap ${result.curves[0].points[decision.choice].x}`),
    );
    assert.match(payload.sureness, /1 point margin on \d+ header queries \(## and ###/);
    assert.ok(exposure, "exposure computed");
    assert.match(payload.sureness, /overlap can change at most \d+% of these \d+ queries/);
    assert.ok(payload.stability === "stable" || payload.stability?.startsWith("moves:"));
    assert.equal(payload.settle === undefined, decision.verdict === "decided");
    const exported = payload.exported as {
      verdict: { state: string };
      chosen: { name: string };
      rerun: { argv: string[] };
    };
    assert.equal(exported.verdict.state, decision.verdict);
    // the CLI, given the export's own re-run flags, reaches the same verdict on the same corpus
    const cli = seamlab(["sweep", ...exported.rerun.argv, "--json", "--quiet", "--cache-dir", cache, "--workers", "0"]);
    assert.equal(cli.status, 0, cli.stderr);
    const json = JSON.parse(cli.stdout) as { curves: { decision: { verdict: string; choice: number } }[] };
    assert.equal(json.curves[0].decision.verdict, decision.verdict);
    assert.equal(json.curves[0].decision.choice, decision.choice);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  }
});

test("the settling command asks for more of the same queries when the source has them, else for labelled ones", () => {
  const inputs = { queryKind: "header", querySample: { population: 300 } } as Parameters<typeof settleCommand>[0];
  const s = settings("docs");
  assert.equal(settleCommand(inputs, s, null), undefined);
  assert.match(
    settleCommand(inputs, s, 250) as string,
    /seamlab sweep --corpus docs --queries headers .*--query-sample 250$/,
  );
  assert.match(
    settleCommand(inputs, s, 2127) as string,
    /--queries your-questions\.csv .*needs about 2,127 queries; this corpus gives only 300/,
  );
  assert.match(settleCommand(inputs, s, Infinity) as string, /widen --margin/);
  assert.deepEqual(sweepArgv(s, "ict").slice(0, 4), ["--corpus", "docs", "--queries", "ict"]);
  assert.ok(!sweepArgv(s, "ict").includes("--heading-levels"), "heading levels only for header queries");
});

test("exposure reads as the most overlap can change, and says when it is too little to decide", () => {
  const exposure = { queries: 376, exposed: 117, share: 117 / 376 } as Parameters<typeof exposureText>[0];
  const verdict = { why: null } as Parameters<typeof exposureText>[1];
  assert.equal(
    exposureText(exposure, verdict),
    "overlap can change at most 31% of these 376 queries (117 where a seam can cut the gold span)",
  );
  assert.match(
    exposureText({ ...exposure, exposed: 3, share: 3 / 376 }, { ...verdict, why: "too few exposed queries" }),
    /too few to decide anything on them/,
  );
});

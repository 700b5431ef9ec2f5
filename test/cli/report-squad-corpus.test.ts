import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { assertUserError, seamlab } from "./spawn-cli";

const dir = tinyCorpusFolder();
after(() => rmSync(dir, { recursive: true, force: true }));

test("report --corpus X --queries squad.json is refused as retrieve refuses it, before any notebook runs", () => {
  const squad = join(dir, "squad.json");
  const context = "Tail sampling decides after the whole trace is complete.";
  const qas = [{ id: "q1", question: "When?", answers: [{ text: "after the whole trace", answer_start: 22 }] }];
  writeFileSync(squad, JSON.stringify({ version: "v2.0", data: [{ title: "t", paragraphs: [{ context, qas }] }] }));
  const out = join(dir, "reports");
  const args = ["--corpus", dir, "--queries", squad];
  const report = seamlab(["report", ...args, "--out", out]);
  assertUserError(
    report,
    /--corpus and --queries cannot be used together: the SQuAD file .*squad\.json brings its own/,
  );
  assert.equal(existsSync(out), false, "nothing was written");
  assertUserError(seamlab(["retrieve", ...args]), /--corpus and --queries cannot be used together/);
});

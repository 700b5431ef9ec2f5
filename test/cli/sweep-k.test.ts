// `sweep --k N` was parsed and then ignored (only --ks counted): it is now --ks N, as retrieve and report take it.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { SeamlabError } from "../../src/core/errors";
import { parseSweepFlags } from "../../src/cli/sweep-flags";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { assertUserError, seamlab } from "./spawn-cli";

const corpus = tinyCorpusFolder();
after(() => rmSync(corpus, { recursive: true, force: true }));

test("sweep --k N sets the one first-stage depth, as --ks N does", () => {
  assert.equal(parseSweepFlags(["--k", "3"]).ks, "3");
  const run = (flag: string) =>
    seamlab([
      "sweep",
      "--corpus",
      corpus,
      "--size",
      "200",
      "--overlaps",
      "0,20",
      "--no-cache",
      "--workers",
      "0",
      flag,
      "3",
    ]);
  const viaK = run("--k");
  assert.equal(viaK.status, 0, viaK.stderr);
  assert.match(viaK.stdout, /k=3 @3/);
  assert.doesNotMatch(viaK.stdout, /k=5/);
  const results = (stdout: string) => stdout.split("\n").slice(1).join("\n"); // the first line says how long it took
  assert.equal(results(viaK.stdout), results(run("--ks").stdout));
});

test("sweep --k with --ks, or with a list, is refused naming --ks", () => {
  assert.throws(
    () => parseSweepFlags(["--k", "3", "--ks", "5"]),
    (error: unknown) => error instanceof SeamlabError && /--k and --ks cannot be used together/.test(error.message),
  );
  assert.throws(
    () => parseSweepFlags(["--k", "5,10"]),
    (error: unknown) => error instanceof SeamlabError && /for several use --ks 5,10/.test(error.message),
  );
  assertUserError(seamlab(["sweep", "--corpus", corpus, "--k", "0"]), /--k/);
});

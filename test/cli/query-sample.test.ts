// `--query-sample` through the real CLI: a bad value stops before any work with the flag named; a sample runs
// every config on the same sampled queries and says so in the summary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertUserError, seamlab } from "./spawn-cli";
import { fastifyGuides } from "../helpers/corpora";

test("a bad --query-sample is refused, naming the flag, by sweep, retrieve and report", () => {
  assertUserError(seamlab(["sweep", "--corpus", fastifyGuides, "--query-sample", "0"]), /--query-sample must be/);
  assertUserError(seamlab(["retrieve", "--corpus", fastifyGuides, "--query-sample", "some"]), /--query-sample must be/);
  assertUserError(
    seamlab(["report", "--corpus", fastifyGuides, "--query-sample", "auto:2", "--out", "/nonexistent/x"]),
    /--query-sample must be/,
  );
});

test("seamlab sweep --query-sample N scores every overlap on the same N sampled queries and names the sample", () => {
  const args = ["sweep", "--corpus", fastifyGuides, "--splitter", "window", "--size", "400", "--overlaps", "0,100"];
  const run = seamlab([...args, "--query-sample", "25", "--no-cache", "--workers", "0", "--quiet", "--json"]);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.queries, 25);
  assert.match(
    report.querySample.description,
    new RegExp(`^a seeded sample of 25 of ${report.querySample.population} queries`),
  );
  assert.match(
    report.queryLabel,
    new RegExp(`^25 of ${report.querySample.population} header queries \\(## and ###\\), a seeded sample$`),
  );
  assert.ok(report.rows.every((r: { queries: number }) => r.queries === 25));
  const text = seamlab([...args, "--query-sample", "25", "--no-cache", "--workers", "0", "--quiet"]);
  assert.match(
    text.stdout.split("\n")[0],
    /^corpus .*: 25 of \d+ header queries \(## and ###\), a seeded sample \(\d+ of \d+ headings dropped: .*\); 2 configs/,
  );
});

test("--budget is checked before any work and refused beside --query-sample", () => {
  assertUserError(
    seamlab(["sweep", "--corpus", fastifyGuides, "--budget", "0"]),
    /--budget must be a number of minutes/,
  );
  assertUserError(
    seamlab(["report", "--corpus", fastifyGuides, "--budget", "soon", "--out", "/nonexistent/x"]),
    /--budget must be a number of minutes/,
  );
  assertUserError(
    seamlab(["sweep", "--corpus", fastifyGuides, "--budget", "5", "--query-sample", "10"]),
    /--budget and --query-sample cannot be used together/,
  );
});

test("seamlab sweep --budget says in one line what it chose and runs that many queries", () => {
  const args = ["sweep", "--corpus", fastifyGuides, "--splitter", "window", "--size", "400", "--overlaps", "0,100"];
  const run = seamlab([...args, "--budget", "5", "--no-cache", "--workers", "0", "--quiet", "--json"]);
  assert.equal(run.status, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const line = run.stderr.split("\n").find((l) => l.startsWith("seamlab: budget 5 min: "));
  assert.ok(line, run.stderr);
  assert.equal(line, `seamlab: ${report.budget.line}`);
  // times at their own precision: minutes from 6 s up, seconds or milliseconds below
  assert.match(line, /estimated \d+(\.\d+)? (min|s|ms) \(2 configs: .* from a \d+\.\d s pilot\)\.$/);
  assert.equal(report.queries, report.budget.queries);
  assert.equal(report.querySample.population, report.budget.population);
});

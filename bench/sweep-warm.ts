// The warm re-run of a 6-overlap sweep (issue 32's target: 1 s wall or less on a ~6 MB corpus): `seamlab sweep
// --overlaps 0,50,100,200,300,400` run once to fill a fresh result cache, then again and again with every row
// cached, each run a whole process (start-up included) under /usr/bin/time: wall seconds, CPU seconds (user +
// system, worker threads included) and peak RSS, medians with min-max. The code is the committed HEAD in a fresh
// clone (node_modules linked; its first run builds src/ and says nothing of it), so edits in progress in this
// checkout do not count. Corpus: bench:splitters' default (5.7 M characters every clone installs from npm), plus
// opentelemetry-docs when SEAMLAB_DATA_DIR is set (one line says it is skipped otherwise).
//
//   npm run bench:sweep-warm [-- --runs N] [--baseline REV]
//
// --baseline REV times REV's clone too, its warm runs alternating with HEAD's (A B A B ...), so before and after
// show side by side in one run. Wall time on a shared 2-core machine carries the neighbours' load: the load average
// is printed, and CPU seconds are the steadier figure.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../src/core/project";
import { median } from "../src/stats/quantiles";
import { dataDirOrSkip } from "../test/helpers/data-dir";
import { freshClone, requireSameLock, resolveCommit } from "./checkout";
import { timeProcess, type ProcessTime } from "./process-time";
import { SPLITTER_CORPUS_SPEC } from "./splitter-corpus";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, baseline: { type: "string" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs ${values.runs}: give a whole number of 1 or more`);
const OVERLAPS = "0,50,100,200,300,400";
const TARGET_WALL_S = 1;
const root = projectRoot();

interface Checkout {
  label: string;
  dir: string;
  cache: string;
}

interface RunStats extends ProcessTime {
  /** The sweep's first line says how many configs came from the cache. */
  cached: string;
}

function sweep(checkout: Checkout, corpus: string): RunStats {
  const args = ["--corpus", corpus, "--overlaps", OVERLAPS, "--cache-dir", checkout.cache, "--quiet"];
  const { time, run } = timeProcess([process.execPath, "bin/seamlab.js", "sweep", ...args], {
    cwd: checkout.dir,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  if (run.status !== 0) throw new Error(`${checkout.label}: seamlab sweep failed:\n${run.stderr}`);
  const cached = /\((\d+ cached, \d+ computed)\)/.exec(String(run.stdout))?.[1] ?? "cache use not reported";
  return { ...time, cached };
}

/** How the checkout's CLI runs: from src/ built once (src/build/), or on tsx when that build failed or is absent. */
function howItRuns(checkout: Checkout): string {
  const script =
    'const { existsSync } = require("node:fs");' +
    'if (!existsSync("src/build/ensure-built.cjs")) { console.log("no src/build/ at this commit"); process.exit(0); }' +
    'require("./src/build/ensure-built.cjs").ensureBuilt(process.cwd())' +
    '.then((b) => console.log(b ? "from src/ built once" : "on tsx: building src/ failed"));';
  const run = spawnSync(process.execPath, ["-e", script], { cwd: checkout.dir, encoding: "utf8" });
  return run.stdout.trim() || `unknown (${run.stderr.trim().split("\n")[0]})`;
}

const spread = (xs: number[], digits = 2) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;

function benchCorpus(checkouts: Checkout[], name: string, corpus: string): string[] {
  const lines: string[] = [];
  const warm = new Map<Checkout, RunStats[]>(checkouts.map((c) => [c, []]));
  for (const checkout of checkouts) {
    const cold = sweep(checkout, corpus);
    console.log(
      `${name} [${checkout.label}] cold: ${cold.wall.toFixed(2)} s wall, ${cold.cpu.toFixed(2)} s CPU, ` +
        `${cold.peakMb.toFixed(0)} MB (${cold.cached}); the CLI runs ${howItRuns(checkout)}`,
    );
  }
  for (let run = 0; run < runs; run++) {
    for (const checkout of checkouts) {
      const stats = sweep(checkout, corpus);
      warm.get(checkout)!.push(stats);
      console.log(
        `${name} [${checkout.label}] warm ${run + 1}: ${stats.wall.toFixed(2)} s wall, ${stats.cpu.toFixed(2)} s CPU ` +
          `(${stats.cached}; load average ${loadavg()[0].toFixed(1)})`,
      );
    }
  }
  for (const checkout of checkouts) {
    const stats = warm.get(checkout)!;
    const wall = median(stats.map((s) => s.wall));
    lines.push(
      `sweep warm re-run, ${OVERLAPS.split(",").length} overlaps, ${name} [${checkout.label}]: ` +
        `${spread(stats.map((s) => s.wall))} s wall, ${spread(stats.map((s) => s.cpu))} s CPU, ` +
        `${median(stats.map((s) => s.peakMb)).toFixed(0)} MB, median of ${runs} ` +
        `(target ${TARGET_WALL_S} s wall: ${wall <= TARGET_WALL_S ? "met" : "missed"})`,
    );
  }
  if (checkouts.length === 2) {
    const [before, after] = checkouts.map((c) => warm.get(c)!);
    const ratio = (pick: (s: RunStats) => number) => (median(after.map(pick)) / median(before.map(pick))).toFixed(2);
    lines.push(
      `sweep warm re-run, ${name}: HEAD / ${checkouts[0].label}: wall ${ratio((s) => s.wall)}, CPU ${ratio((s) => s.cpu)}`,
    );
  }
  return lines;
}

const clones: string[] = [];
try {
  const checkouts: Checkout[] = [];
  const baseline = values.baseline === undefined ? undefined : resolveCommit(values.baseline, root);
  if (baseline) requireSameLock(baseline, root);
  for (const [commit, label] of baseline
    ? [
        [baseline, `baseline ${baseline.slice(0, 10)}`],
        ["HEAD", "HEAD"],
      ]
    : [["HEAD", "HEAD"]]) {
    const dir = freshClone(root, commit, "seamlab-sweep-bench-");
    clones.push(dir);
    const cache = mkdtempSync(join(tmpdir(), "seamlab-sweep-bench-cache-"));
    clones.push(cache);
    checkouts.push({ label, dir, cache });
  }
  const lines = benchCorpus(checkouts, "the bench:splitters corpus (5.7 M chars)", SPLITTER_CORPUS_SPEC);
  const data = dataDirOrSkip("bench:sweep-warm", "opentelemetry-docs, timed after the default corpus");
  if (data) lines.push(...benchCorpus(checkouts, "opentelemetry-docs", join(data, "opentelemetry-docs")));
  for (const line of lines) console.log(line);
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")} on ${availableParallelism()} cores (a shared machine inflates wall times)`,
  );
} finally {
  for (const dir of clones) rmSync(dir, { recursive: true, force: true });
}

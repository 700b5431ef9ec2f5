// How long the report takes from a fresh clone (the targets: `npm run report` on the default corpora
// ≤ 60 s; `seamlab report --corpus $SEAMLAB_DATA_DIR/opentelemetry-docs` ≤ 90 s). Clones the committed HEAD
// into a temporary folder (empty result cache, node_modules linked), runs each report as a child process under
// /usr/bin/time and prints wall seconds, peak RSS and the machine's load: on a shared machine wall time is noisy.
//
// Usage: npm run bench:report [-- --only default|otel] [--jobs N]
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../src/core/project";
import { readNotebook } from "../src/report/nbformat";
import { notebookTimings } from "../src/report/timings";

const { values } = parseArgs({ options: { only: { type: "string" }, jobs: { type: "string" } } });
const root = projectRoot();
const dataDir = process.env.SEAMLAB_DATA_DIR;
const clone = mkdtempSync(join(tmpdir(), "seamlab-report-bench-"));

interface Timing {
  name: string;
  /** Output folder in the clone (its executed notebooks carry per-cell times). */
  out: string;
  seconds: number;
  peakMb: number;
  ok: boolean;
  target: number;
}

function timed(name: string, target: number, out: string, command: string[]): Timing {
  const stats = join(clone, `${name}.time`);
  const load = loadavg()[0];
  process.stderr.write(`report-time: ${name}: ${command.join(" ")} (load average ${load.toFixed(1)})\n`);
  const run = spawnSync("/usr/bin/time", ["-f", "%e %M", "-o", stats, ...command], {
    cwd: clone,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  const [seconds, kb] = readFileSync(stats, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  return { name, out, seconds, peakMb: kb / 1024, ok: run.status === 0, target };
}

/**
 * One line per executed notebook, longest first: its wall time split into kernel start, import cells (tslab
 * type-checks and transpiles what they reach, then loads it) and computing cells.
 */
function notebookLines(out: string): string[] {
  if (!existsSync(out)) return [];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return readdirSync(out)
    .filter((name) => name.endsWith(".ipynb"))
    .map((name) => ({ name, t: notebookTimings(readNotebook(join(out, name))) }))
    .filter((x) => x.t !== undefined)
    .sort((a, b) => b.t!.totalMs - a.t!.totalMs)
    .map(
      ({ name, t }) =>
        `${name}: ${s(t!.totalMs)} = kernel start ${s(t!.kernelStartMs)} + imports ${s(t!.importMs)} + ` +
        `cells ${s(t!.computeMs)}`,
    );
}

try {
  const cloned = spawnSync("git", ["clone", "-q", "--no-hardlinks", root, clone], { stdio: "inherit" });
  if (cloned.status !== 0) throw new Error("git clone failed");
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"));
  const jobs = values.jobs ? ["--jobs", values.jobs] : [];
  const timings: Timing[] = [];
  if (values.only !== "otel") {
    timings.push(
      timed("npm run report", 60, "out-default", [
        "npm",
        "run",
        "--silent",
        "report",
        "--",
        "--out",
        "out-default",
        ...jobs,
      ]),
    );
  }
  if (values.only !== "default") {
    const otel = dataDir ? join(dataDir, "opentelemetry-docs") : undefined;
    if (!otel || !existsSync(otel)) {
      process.stdout.write("bench:report skips opentelemetry-docs: SEAMLAB_DATA_DIR is unset or lacks it.\n");
    } else {
      timings.push(
        timed("seamlab report --corpus opentelemetry-docs", 90, "out-otel", [
          process.execPath,
          "bin/seamlab.js",
          "report",
          "--corpus",
          otel,
          "--out",
          "out-otel",
          ...jobs,
        ]),
      );
    }
  }
  for (const t of timings) {
    process.stdout.write(
      `${t.name}: ${t.seconds.toFixed(1)} s wall (target ≤ ${t.target} s: ${t.seconds <= t.target ? "met" : "MISSED"}), ` +
        `peak RSS ${t.peakMb.toFixed(0)} MB${t.ok ? "" : ", FAILED"}\n`,
    );
    for (const line of notebookLines(join(clone, t.out))) process.stdout.write(`  ${line}\n`);
  }
  process.stdout.write(
    `fresh clone of HEAD, empty result cache; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")} on ${availableParallelism()} cores (a shared machine inflates wall times)\n`,
  );
  if (timings.some((t) => !t.ok)) process.exitCode = 1;
} finally {
  rmSync(clone, { recursive: true, force: true });
}

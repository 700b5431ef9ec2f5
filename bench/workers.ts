// Does a second worker thread pay? The same grid (seven splitters at 1000/0, 1000/200, 1000/500 and a six-point
// overlap sweep of `langchain` and `window`, header queries, BM25 at k = 5) on an empty cache with 1 and with 2
// worker threads, side by side in one process. Prints wall and CPU seconds of each run, the speed-up, whether the
// rows are identical, each thread's timeline (when its first task started, busy time, idle tail), and the machine
// load: on a shared machine a busy neighbour takes the second core, which the CPU seconds show. Two controls, taken
// before and after each pair, say what the machine gives two threads apart from seamlab's code: a fixed arithmetic
// loop (about 2x on two idle cores) and Map lookups of string keys (like the grid's term -> id tables; two virtual
// cores that share a physical core's caches give such work less).
//
// --grid tokens runs a six-overlap token-window sweep instead (all token windows: the work the planner used to
// keep in one task, on one thread).
//
// Each worker first builds its share of the documents' setup (sentence pairs, token pieces: experiment/doc-setup),
// shown as "documents' setup" in the timelines; the row tasks follow.
//
// After each cold run the same grid runs again (cache emptied) on the threads the cold run kept, as a notebook's
// next runGrid call on the same corpus finds them: the "warm" speed-up, without what each thread pays once (start-up,
// the optimising compiler's first pass over the code, the documents' setup). The target is the cold speed-up's.
//
// Usage: npm run bench:workers [-- --corpus PATH | --generated MB] [--grid study|tokens] [--rounds N] [--json FILE]
// Needs SEAMLAB_DATA_DIR (opentelemetry-docs) unless --corpus or --generated is given. --generated 10 runs on
// bench:scale's 10 MB corpus (mostly generated text, written under /tmp once and reused): an 80-s grid, where what
// each thread pays once (loading, compiling the hot code, its own caches) is small beside the work. On
// opentelemetry-docs' 15-s grid it is not: there 2 workers used 18% more CPU than 1 on 2026-12-03, on 10 MB 1-4%.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Worker } from "node:worker_threads";
import { loadCorpus } from "../src/corpus/load";
import { clearCache } from "../src/experiment/cache";
import { normalizeConfig, type ExperimentConfig } from "../src/experiment/grid";
import { runGrid, type GridResult, type TaskTime } from "../src/experiment/run";
import { closeWorkers } from "../src/experiment/execute";
import { ensureBuilt } from "../src/build/ensure-built.cjs";
import { projectRoot } from "../src/core/project";
import { processThreadTimes, threadCpuMs, uptimeMs, type ThreadTimes } from "../src/experiment/thread-times";
import { buildHeaderQueries } from "../src/retrieval/header-queries";
import { dataDirOrSkip } from "../test/helpers/data-dir";
import { generateCorpus } from "./generated-corpus";

const { values } = parseArgs({
  options: {
    corpus: { type: "string" },
    generated: { type: "string" },
    grid: { type: "string", default: "study" },
    rounds: { type: "string" },
    json: { type: "string" },
  },
});
if (values.corpus !== undefined && values.generated !== undefined) {
  console.error("bench:workers: give --corpus PATH or --generated MB, not both.");
  process.exit(2);
}
const generatedMb = values.generated === undefined ? undefined : Number(values.generated);
if (generatedMb !== undefined && !(Number.isInteger(generatedMb) && generatedMb >= 1 && generatedMb <= 1000)) {
  console.error(`bench:workers: --generated must be a whole number of MB from 1 to 1000, got "${values.generated}".`);
  process.exit(2);
}
const named = values.corpus ?? (generatedMb === undefined ? undefined : generateCorpus(generatedMb).dir);
const data = named
  ? undefined
  : dataDirOrSkip("bench:workers", "opentelemetry-docs, or --corpus PATH or --generated MB");
if (!named && !data) process.exit(0);
const corpusPath = resolve(named ?? join(data as string, "opentelemetry-docs"));
const rounds = Number(values.rounds ?? "1");
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`bench:workers: --rounds must be a whole number >= 1, got "${values.rounds}".`);
  process.exit(2);
}
if (values.grid !== "study" && values.grid !== "tokens") {
  console.error(`bench:workers: --grid must be study or tokens, got "${values.grid}".`);
  process.exit(2);
}

const SPLITTERS = ["window", "window-words", "langchain", "recursive", "sentences", "tail", "tokens"];
const OVERLAPS = [0, 200, 500];
const SWEEP_SPLITTERS = ["langchain", "window"];
const SWEEP_OVERLAPS = [50, 100, 300, 400];

function config(splitter: string, overlap: number): ExperimentConfig {
  return normalizeConfig({
    splitter: { splitter, size: 1000, overlap, unit: splitter === "tokens" ? "tokens" : "chars" },
    retrieval: { k: 5 },
  });
}
const configs: ExperimentConfig[] =
  values.grid === "tokens"
    ? [0, 50, 100, 200, 300, 400].map((overlap) => config("tokens", overlap))
    : [
        ...SPLITTERS.flatMap((splitter) => OVERLAPS.map((overlap) => config(splitter, overlap))),
        ...SWEEP_SPLITTERS.flatMap((splitter) => SWEEP_OVERLAPS.map((overlap) => config(splitter, overlap))),
      ];

const corpus = loadCorpus(corpusPath);
const set = buildHeaderQueries(corpus.docs);
const inputs = { docs: set.docs, queries: set.queries };

interface Run {
  workers: number;
  seconds: number;
  cpuSeconds: number;
  /** CPU seconds of this (the main) thread alone, Linux only. */
  mainCpuSeconds: number;
  load: number;
  result: GridResult;
  /** Worker threads by kernel id (Linux): seconds on a core, waiting for a core, and blocked, over their life. */
  workerTimes: Map<number, { cpu: number; wait: number; blocked: number; started: number }>;
  /** CPU seconds of the process's other threads in the run: V8's collector and compiler, LangChain's, tsx's. */
  otherCpu: number;
}

/** The documents' setup shares and the row tasks, in the order they started. */
function tasksOf(result: GridResult): TaskTime[] {
  return [...result.setupTimes, ...result.taskTimes].sort((a, b) => a.startMs - b.startMs);
}

const cacheDir = mkdtempSync(join(tmpdir(), "seamlab-bench-workers-"));

async function coldRun(workers: number): Promise<Run> {
  clearCache(cacheDir);
  const threads0 = processThreadTimes();
  const boot0 = uptimeMs() ?? 0;
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuMs() ?? 0;
  const t0 = performance.now();
  // A fresh pool each run, as a new process would start it; kept until its threads' times are read, then closed.
  const result = await runGrid(inputs, configs, { workers, cacheDir, quiet: true, keepWorkers: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const mainCpuSeconds = ((threadCpuMs() ?? 0) - main0) / 1000;
  const threads1 = processThreadTimes();
  const boot1 = uptimeMs() ?? 0;
  const workerIds = new Set(
    tasksOf(result)
      .map((t) => t.osThread)
      .filter((id): id is number => id !== undefined),
  );
  const workerTimes: Run["workerTimes"] = new Map();
  let otherCpu = 0;
  for (const [tid, after] of threads1) {
    const before: ThreadTimes = threads0.get(tid) ?? { cpuMs: 0, waitMs: 0, startedMs: after.startedMs };
    const cpuMs = after.cpuMs - before.cpuMs;
    if (!workerIds.has(tid)) {
      if (tid !== process.pid) otherCpu += cpuMs / 1000;
      continue;
    }
    const waitMs = after.waitMs - before.waitMs;
    const lifeMs = boot1 - Math.max(boot0, after.startedMs);
    const started = Math.max(0, after.startedMs - boot0) / 1000;
    workerTimes.set(tid, {
      cpu: cpuMs / 1000,
      wait: waitMs / 1000,
      blocked: (lifeMs - cpuMs - waitMs) / 1000,
      started,
    });
  }
  const run = {
    workers,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    mainCpuSeconds,
    load: loadavg()[0],
    result,
    workerTimes,
    otherCpu,
  };
  process.stderr.write(
    `${workers} worker${workers === 1 ? " " : "s"}: ${seconds.toFixed(2)} s wall, ${run.cpuSeconds.toFixed(1)} s CPU ` +
      `(${result.computed} computed, ${result.cached} cached; load average ${run.load.toFixed(2)})\n`,
  );
  return run;
}

/** A second sweep of the same grid (cache emptied again) on the pool the cold run kept, then the pool is closed. */
interface WarmRun {
  workers: number;
  seconds: number;
  cpuSeconds: number;
  rows: string;
}

/**
 * The same grid again on the threads the cold run started and kept (as a notebook's next `runGrid` call on the same
 * corpus finds them): their modules are loaded, their code is optimised and the documents' setup is built, so this
 * measures the sweep's own work without what each thread pays once.
 */
async function warmRun(workers: number): Promise<WarmRun> {
  clearCache(cacheDir);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await runGrid(inputs, configs, { workers, cacheDir, quiet: true, keepWorkers: true });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  await closeWorkers();
  const run = { workers, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, rows: JSON.stringify(result.rows) };
  process.stderr.write(
    `${workers} worker${workers === 1 ? " " : "s"}, warm (the same threads again): ${seconds.toFixed(2)} s wall, ` +
      `${run.cpuSeconds.toFixed(1)} s CPU (load average ${loadavg()[0].toFixed(2)})\n`,
  );
  return run;
}

/**
 * What the run would take with the machine to itself, from its threads' scheduler times (Linux): each worker needs
 * its start, its time on a core and its time blocked (never the time it waited for a core: that is the
 * neighbours'); the slowest worker sets the wall. The process's other threads (collector, compiler, LangChain's)
 * run on a spare core when there is one, and otherwise take their CPU from the workers, spread over the cores.
 */
function idleProjection(run: Run): number | undefined {
  if (run.workerTimes.size === 0) return undefined;
  const cores = availableParallelism();
  const slowest = Math.max(...[...run.workerTimes.values()].map((t) => t.started + t.cpu + t.blocked));
  return slowest + (run.workers >= cores ? run.otherCpu / cores : 0);
}

/**
 * A bound from CPU alone, which a busy neighbour barely moves (unlike time blocked, which grows while the threads we
 * wait on wait for a core): the slowest worker's start plus its time on a core, and, with every core taken, all the
 * run's CPU spread over the cores. An idle machine takes at least this long.
 */
function cpuFloor(run: Run): number | undefined {
  if (run.workerTimes.size === 0) return undefined;
  const slowest = Math.max(...[...run.workerTimes.values()].map((t) => t.started + t.cpu));
  return run.workers >= availableParallelism() ? Math.max(slowest, run.cpuSeconds / availableParallelism()) : slowest;
}

/**
 * Per thread: when its first task started, its wall time busy, its CPU time in tasks and in start-up (Linux), and
 * how long it idled before the run ended. What the worker threads' CPU does not cover is the main thread's,
 * the garbage collector's helper threads' and the tsx loader's.
 */
function timeline(run: Run): string[] {
  const byThread = new Map<number, TaskTime[]>();
  for (const t of tasksOf(run.result)) {
    if (!byThread.has(t.thread)) byThread.set(t.thread, []);
    (byThread.get(t.thread) as TaskTime[]).push(t);
  }
  const end = run.seconds * 1000;
  const s = (ms: number) => (ms / 1000).toFixed(2);
  let workerCpu = 0;
  const lines = [...byThread.entries()].map(([thread, tasks]) => {
    const first = Math.min(...tasks.map((t) => t.startMs));
    const last = Math.max(...tasks.map((t) => t.startMs + t.ms));
    const busy = tasks.reduce((sum, t) => sum + t.ms, 0);
    const cpu = tasks.reduce((sum, t) => sum + (t.cpuMs ?? 0), 0);
    const boot = tasks.reduce((sum, t) => sum + (t.bootCpuMs ?? 0), 0);
    workerCpu += cpu + boot;
    const longest = tasks.reduce((a, b) => (b.ms > a.ms ? b : a));
    return (
      `  thread ${thread}: ${tasks.length} tasks, first starts at ${s(first)} s, busy ${s(busy)} s wall / ` +
      `${s(cpu)} s CPU, start-up ${s(boot)} s CPU, idle tail ${s(end - last)} s; longest ${longest.splitter} ` +
      `${s(longest.ms)} s wall / ${s(longest.cpuMs ?? 0)} s CPU`
    );
  });
  for (const [tid, t] of run.workerTimes)
    lines.push(
      `  worker (kernel thread ${tid}), from its start at ${t.started.toFixed(2)} s: on a core ${t.cpu.toFixed(2)} s, ` +
        `waiting for a core ${t.wait.toFixed(2)} s (the machine's load), blocked ${t.blocked.toFixed(2)} s (start-up, ` +
        `waiting on LangChain's thread, on the collector, for a task, idle tail)`,
    );
  lines.push(
    `  main thread ${run.mainCpuSeconds.toFixed(2)} s CPU; other threads (garbage collector, optimising compiler, ` +
      `LangChain's, the TypeScript loader's) ${(run.cpuSeconds - run.mainCpuSeconds - workerCpu / 1000).toFixed(2)} s ` +
      `CPU${run.workerTimes.size > 0 ? ` (by their own clocks ${run.otherCpu.toFixed(2)} s)` : ""}`,
  );
  return lines;
}

/** Wall milliseconds of `code` (a worker's whole source) run on `n` threads at once. */
async function onThreads(code: string, n: number): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, () => new Promise((done) => new Worker(code, { eval: true }).on("exit", done))),
  );
  return performance.now() - t0;
}

/**
 * What the machine gives two threads right now: the same fixed arithmetic loop (no allocation, no shared data)
 * on one thread, then on two at once. On an idle two-core machine the ratio is close to 2; whatever a busy
 * neighbour takes shows here too. Taken before and after each pair of runs, since the load changes meanwhile.
 */
async function controlRatio(): Promise<number> {
  const loop = `let x = 0; for (let i = 0; i < 120_000_000; i++) x = (x + i * 7) % 1_000_003; process.exit(x < 0 ? 1 : 0);`;
  return (2 * (await onThreads(loop, 1))) / (await onThreads(loop, 2));
}

/**
 * The same for lookup-heavy work: each thread builds a Map of 5,000 string keys, then looks every key up 4,000 times
 * (as term -> id tables are read, which much of a grid's work is). The arithmetic loop runs in registers; this one
 * reads hash tables, so it shows how far this machine and V8 let two threads of such work scale, apart from
 * seamlab's code (on 2026-12-02, idle: 1.29x to 2.07x over six runs; the arithmetic loop 1.84-1.99x).
 */
async function lookupControlRatio(): Promise<number> {
  const lookups =
    `const m = new Map(), keys = []; for (let i = 0; i < 5000; i++) { const k = "w" + ((i * 7919) % 100003); ` +
    `keys.push(k); m.set(k, i); } let s = 0; for (let r = 0; r < 4000; r++) for (let i = 0; i < 5000; i++) ` +
    `s += m.get(keys[i]); process.exit(s < 0 ? 1 : 0);`;
  return (2 * (await onThreads(lookups, 1))) / (await onThreads(lookups, 2));
}

// src/ is built as JavaScript once per version of the code (build/ensure-built.cjs); build it before
// the timed runs, so that neither side pays it.
await ensureBuilt(projectRoot());

const runs: Run[] = [];
const warmRuns: WarmRun[] = [];
const controls: number[] = [];
const lookupControls: number[] = [];
/** Both controls, printed as they are taken. */
async function takeControls(): Promise<void> {
  controls.push(await controlRatio());
  lookupControls.push(await lookupControlRatio());
  process.stderr.write(
    `control, 2 threads vs 1: fixed loop ${controls[controls.length - 1].toFixed(2)}x, Map lookups ` +
      `${lookupControls[lookupControls.length - 1].toFixed(2)}x\n`,
  );
}
process.stderr.write(
  `bench:workers: ${values.grid} grid, ${configs.length} configs, ${inputs.docs.length} docs, ${inputs.queries.length} queries ` +
    `(${corpusPath}); load average before ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" / ")} on ${availableParallelism()} cores\n`,
);
for (let round = 0; round < rounds; round++) {
  // Alternate the order so that a change in the machine's load does not favour one side.
  const order = round % 2 === 0 ? [1, 2] : [2, 1];
  await takeControls();
  for (const workers of order) {
    runs.push(await coldRun(workers));
    warmRuns.push(await warmRun(workers));
  }
  await takeControls();
}
rmSync(cacheDir, { recursive: true, force: true });

const one = runs.filter((r) => r.workers === 1);
const two = runs.filter((r) => r.workers === 2);
const reference = JSON.stringify(one[0].result.rows);
const identical =
  runs.every((r) => JSON.stringify(r.result.rows) === reference) && warmRuns.every((r) => r.rows === reference);
// With several rounds, the fastest of each: on a shared machine a slower run measures the neighbours.
const fastest = (xs: Run[]) => xs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
const wall1 = fastest(one).seconds;
const wall2 = fastest(two).seconds;
const cpu1 = fastest(one).cpuSeconds;
const cpu2 = fastest(two).cpuSeconds;
const ratio = wall1 / wall2;
// Each round's own pair (its 1-worker and 2-worker runs, back to back): how much the fastest-of ratio moves by round.
const pairRatios = one.map((run, i) => run.seconds / two[i].seconds);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** Per worker thread: when its first task started plus its CPU in tasks; the largest (wall if the core were free). */
function busiestThread(run: Run): number {
  const threads = new Map<number, number>();
  const tasks = tasksOf(run.result);
  for (const t of tasks) {
    const first = Math.min(threads.get(t.thread) ?? Infinity, t.startMs);
    threads.set(t.thread, first);
  }
  return Math.max(
    ...[...threads].map(
      ([thread, first]) =>
        (first + tasks.filter((t) => t.thread === thread).reduce((sum, t) => sum + (t.cpuMs ?? 0), 0)) / 1000,
    ),
  );
}
/** The least disturbed run's projection (scheduler times), else the CPU-time bound of the fastest run. */
function projection(xs: Run[]): { seconds: number; how: "scheduler" | "cpu" } {
  const projected = xs.map(idleProjection).filter((x): x is number => x !== undefined);
  if (projected.length > 0) return { seconds: Math.min(...projected), how: "scheduler" };
  const run = fastest(xs);
  return { seconds: Math.max(busiestThread(run), run.cpuSeconds / 2), how: "cpu" };
}
const project1 = projection(one);
const project2 = projection(two);
const lines = [
  `1 worker: ${wall1.toFixed(2)} s wall, ${cpu1.toFixed(1)} s CPU; 2 workers: ${wall2.toFixed(2)} s wall, ` +
    `${cpu2.toFixed(1)} s CPU (CPU/wall ${(cpu2 / wall2).toFixed(2)} of 2)${rounds > 1 ? `; fastest of ${rounds}` : ""}`,
  `speed-up 2 vs 1 worker: ${ratio.toFixed(2)}x (target >= 1.7x on an idle machine: ${ratio >= 1.7 ? "met" : "MISSED"})`,
  ...(rounds > 1
    ? [
        `each round's pair (1 and 2 workers back to back): ${pairRatios.map((x) => x.toFixed(2) + "x").join(", ")}; ` +
          `median ${median(pairRatios).toFixed(2)}x`,
      ]
    : []),
  `cores the runs got (CPU seconds / wall): 1 worker ${(cpu1 / wall1).toFixed(2)}, 2 workers ${(cpu2 / wall2).toFixed(2)}; ` +
    `a plain arithmetic loop got ${controls.map((x) => x.toFixed(2) + "x").join(", ")} from 2 threads vs 1 ` +
    `(before and after each pair; about 2 on an idle machine)`,
  `Map lookups of string keys per thread (lookup-heavy) got ${lookupControls
    .map((x) => x.toFixed(2) + "x")
    .join(", ")} from 2 threads vs 1: how far this machine lets two threads of such work scale`,
  `CPU of 2 workers vs 1: ${((100 * (cpu2 - cpu1)) / cpu1).toFixed(0)}% more (each thread loads and warms up on its ` +
    `own; two threads also slow each other on shared caches and memory, which the lookup control shows)`,
  project1.how === "scheduler"
    ? `idle-machine projection from the threads' scheduler times (not a measurement): 1 worker ` +
      `${project1.seconds.toFixed(1)} s, 2 workers ${project2.seconds.toFixed(1)} s, ` +
      `${(project1.seconds / project2.seconds).toFixed(2)}x (each worker's start + time on a core + time blocked; ` +
      `with every core taken, plus the other threads' CPU over the cores)`
    : `idle-machine projection from CPU times (not a measurement): 1 worker >= ${project1.seconds.toFixed(1)} s ` +
      `(its thread's start and CPU; the collector and compiler threads use the other core), 2 workers >= ` +
      `${project2.seconds.toFixed(1)} s (all CPU over 2 cores, or the busiest thread): at most ` +
      `${(project1.seconds / project2.seconds).toFixed(2)}x`,
  ...(() => {
    const floor1 = Math.min(...one.map(cpuFloor).filter((x): x is number => x !== undefined));
    const floor2 = Math.min(...two.map(cpuFloor).filter((x): x is number => x !== undefined));
    return Number.isFinite(floor1) && Number.isFinite(floor2)
      ? [
          `floor from CPU alone, which the load barely moves (each run's least time on an idle machine: the slowest ` +
            `worker's start and time on a core; with every core taken, all its CPU over the cores): 1 worker >= ` +
            `${floor1.toFixed(1)} s, 2 workers >= ${floor2.toFixed(1)} s (${(floor1 / floor2).toFixed(2)}x)`,
        ]
      : [];
  })(),
  (() => {
    const fastestWarm = (n: number) =>
      warmRuns.filter((r) => r.workers === n).reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const [warm1, warm2] = [fastestWarm(1), fastestWarm(2)];
    return (
      `warm, the same threads sweeping the grid again (a notebook's next sweep of the corpus; no start-up, compiled ` +
      `code, setup built): 1 worker ${warm1.seconds.toFixed(2)} s wall, ${warm1.cpuSeconds.toFixed(1)} s CPU; ` +
      `2 workers ${warm2.seconds.toFixed(2)} s wall, ${warm2.cpuSeconds.toFixed(1)} s CPU; speed-up ` +
      `${(warm1.seconds / warm2.seconds).toFixed(2)}x (the cold speed-up above is the target's)`
    );
  })(),
  `rows identical across all runs: ${identical ? "yes" : "NO"}`,
  `load average after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ")} on ${availableParallelism()} cores (the 1-minute figure includes this benchmark's own threads)`,
  `timeline of the fastest 2-worker run:`,
  ...timeline(fastest(two)),
  `timeline of the fastest 1-worker run:`,
  ...timeline(fastest(one)),
];
process.stdout.write(lines.join("\n") + "\n");
if (values.json) {
  writeFileSync(
    values.json,
    JSON.stringify(
      {
        corpus: corpusPath,
        wall1,
        wall2,
        cpu1,
        cpu2,
        ratio,
        pairRatios,
        warm: warmRuns.map(({ rows: _rows, ...run }) => run),
        identical,
        controls,
        lookupControls,
        load: loadavg(),
        projection: { one: project1, two: project2 },
        runs: runs.map((r) => ({
          workers: r.workers,
          seconds: r.seconds,
          cpu: r.cpuSeconds,
          workerThreads: Object.fromEntries(r.workerTimes),
          otherThreadsCpu: r.otherCpu,
          tasks: tasksOf(r.result),
        })),
      },
      null,
      2,
    ),
  );
}
if (!identical) process.exitCode = 1;

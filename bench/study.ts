// The seed-style study end to end on $SEAMLAB_DATA_DIR/opentelemetry-docs (or --corpus): seven splitters at 1000/0, 1000/200
// and 1000/500 plus a six-point overlap sweep of `langchain` and `window` at size 1000, header queries at
// k = 5, seam measurements and seam damage for every config. Run cold (empty cache) and warm, on 1 and 2
// worker threads; prints wall times, speed-up ratios and whether every run produced identical rows.
//
// Usage: npm run bench:study [-- --corpus PATH] [--json FILE]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadCorpus } from "../src/corpus/load";
import { buildHeaderQueries } from "../src/retrieval/header-queries";
import { clearCache } from "../src/experiment/cache";
import type { ExperimentConfig } from "../src/experiment/grid";
import { normalizeConfig } from "../src/experiment/grid";
import { runGrid, type GridResult } from "../src/experiment/run";
import { flattenRow, sweepCurves } from "../src/experiment/sweep";
import { dataDirOrSkip } from "../test/helpers/data-dir";

const { values } = parseArgs({ options: { corpus: { type: "string" }, json: { type: "string" } } });
const data = values.corpus ? undefined : dataDirOrSkip("bench:study", "opentelemetry-docs, or --corpus PATH");
if (!values.corpus && !data) process.exit(0);
const corpusPath = resolve(values.corpus ?? join(data!, "opentelemetry-docs"));

const SPLITTERS = ["window", "window-words", "langchain", "recursive", "sentences", "tail", "tokens"];
const FIXED_OVERLAPS = [0, 200, 500];
const SWEEP_SPLITTERS = ["langchain", "window"];
const SWEEP_OVERLAPS = [0, 50, 100, 200, 300, 400];
const SIZE = 1000;

function config(splitter: string, overlap: number): ExperimentConfig {
  // `tokens` is a token window: its 1000/200 means tokens, the others count characters.
  return normalizeConfig({
    splitter: { splitter, size: SIZE, overlap, unit: splitter === "tokens" ? "tokens" : "chars" },
    retrieval: { k: 5 },
  });
}

const configs: ExperimentConfig[] = [];
for (const splitter of SPLITTERS) for (const overlap of FIXED_OVERLAPS) configs.push(config(splitter, overlap));
for (const splitter of SWEEP_SPLITTERS) {
  for (const overlap of SWEEP_OVERLAPS) if (!FIXED_OVERLAPS.includes(overlap)) configs.push(config(splitter, overlap));
}

function loadInputs() {
  const corpus = loadCorpus(corpusPath);
  const set = buildHeaderQueries(corpus.docs);
  return { docs: set.docs, queries: set.queries };
}

interface Timed {
  name: string;
  seconds: number;
  /** CPU seconds of the whole process (every thread) during the run: what the machine's load cannot inflate. */
  cpuSeconds: number;
  loadSeconds: number;
  result: GridResult;
}

const cacheDir = mkdtempSync(join(tmpdir(), "seamlab-bench-study-"));

async function timedRun(name: string, workers: number, cold: boolean): Promise<Timed> {
  if (cold) clearCache(cacheDir);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // A warm run still loads the corpus and builds the queries: that is what a re-run of a notebook costs.
  const inputs = loadInputs();
  const t1 = performance.now();
  // keepWorkers false: every cold run starts fresh threads, as a new process would.
  const result = await runGrid(inputs, configs, { workers, cacheDir, quiet: true, keepWorkers: false });
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const timed = {
    name,
    seconds: (t2 - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    loadSeconds: (t1 - t0) / 1000,
    result,
  };
  process.stderr.write(
    `${name.padEnd(22)} ${timed.seconds.toFixed(2)} s wall, ${timed.cpuSeconds.toFixed(1)} s CPU (load + queries ${timed.loadSeconds.toFixed(2)} s; ${result.computed} computed, ${result.cached} cached; load average ${loadavg()[0].toFixed(1)})\n`,
  );
  return timed;
}

/** Paths where two JSON values differ (at most 10), to say what broke determinism. */
function firstDifferences(a: unknown, b: unknown, path: string, out: string[] = []): string[] {
  if (out.length >= 10 || JSON.stringify(a) === JSON.stringify(b)) return out;
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys)
      firstDifferences((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out);
    return out;
  }
  out.push(`${path}: ${JSON.stringify(a)?.slice(0, 60)} vs ${JSON.stringify(b)?.slice(0, 60)}`);
  return out;
}

const f1 = (x: number) => x.toFixed(1);
const pct = (x: number) => (100 * x).toFixed(1);

async function main() {
  process.stderr.write(`study: ${configs.length} configs on ${corpusPath}\n`);
  const cold1 = await timedRun("cold, 1 worker", 1, true);
  const cold2 = await timedRun("cold, 2 workers", 2, true);
  const warm2 = await timedRun("warm, 2 workers", 2, false);
  const warm1 = await timedRun("warm, 1 worker", 1, false);
  rmSync(cacheDir, { recursive: true, force: true });

  const same = [cold2, warm2, warm1].every(
    (run) => JSON.stringify(run.result.rows) === JSON.stringify(cold1.result.rows),
  );
  if (!same) {
    for (const run of [cold2, warm2, warm1]) {
      for (const difference of firstDifferences(cold1.result.rows, run.result.rows, "rows"))
        process.stderr.write(`differs (${cold1.name} vs ${run.name}): ${difference}\n`);
    }
  }
  const rows = cold2.result.rows;
  const inputs = loadInputs();
  const lines: string[] = [];
  lines.push(`corpus ${corpusPath}: ${inputs.docs.length} docs, ${inputs.queries.length} header queries, k = 5 (BM25)`);
  lines.push("");
  lines.push(
    "config                          chunks  zero-overlap seams %  mean overlap  pairs kept %  hit rate@5 %  95% CI        " +
      "distinct  tokens",
  );
  for (const row of rows.slice(0, SPLITTERS.length * FIXED_OVERLAPS.length)) {
    const f = flattenRow(row);
    const name = `${f.splitter} ${f.size}/${f.overlap}${f.unit === "tokens" ? " tok" : ""}`;
    lines.push(
      `${name.padEnd(30)}  ${String(f.chunks).padStart(6)}  ${(f.zeroOverlapPct === null ? "none" : f1(Number(f.zeroOverlapPct))).padStart(20)}  ${f1(Number(f.meanOverlap)).padStart(12)}  ${f1(Number(f.pairsKeptPct)).padStart(12)}  ${pct(Number(f.hitRate)).padStart(12)}  [${pct(Number(f.hitRateLow))}, ${pct(Number(f.hitRateHigh))}]  ${Number(f.meanDistinct).toFixed(2).padStart(8)}  ${f.tokensRatio === null ? "-" : Number(f.tokensRatio).toFixed(2) + "x"}`,
    );
  }
  const sweepRows = rows.filter(
    (row) =>
      SWEEP_SPLITTERS.includes(row.config.splitter.splitter) && SWEEP_OVERLAPS.includes(row.config.splitter.overlap),
  );
  for (const curve of sweepCurves(sweepRows)) {
    lines.push(
      "",
      `${curve.splitter} ${curve.size} overlap sweep, recall@5: ${curve.points.map((p) => `${p.overlap}: ${pct(p.y)}% [${pct(p.low as number)}, ${pct(p.high as number)}]`).join(", ")}`,
    );
    lines.push(
      `  chunks: ${curve.points.map((p) => p.chunks).join(", ")}; tokens ratio: ${curve.points.map((p) => (p.tokensRatio ?? 0).toFixed(2)).join(", ")}`,
    );
    lines.push(
      `  knee: Kneedle ${curve.knee.kneedle?.x ?? "none"}, plateau ${curve.knee.plateau?.x} (${curve.knee.plateau?.rule}), agree ${curve.knee.agree}${curve.knee.notes.length ? "; " + curve.knee.notes.join("; ") : ""}`,
    );
  }
  lines.push("");
  lines.push(
    `wall times (s): cold 1 worker ${cold1.seconds.toFixed(2)}, cold 2 workers ${cold2.seconds.toFixed(2)}, warm 2 workers ${warm2.seconds.toFixed(2)}, warm 1 worker ${warm1.seconds.toFixed(2)}`,
  );
  lines.push(
    `CPU seconds (all threads): cold 1 worker ${cold1.cpuSeconds.toFixed(1)}, cold 2 workers ${cold2.cpuSeconds.toFixed(1)}, warm ${warm2.cpuSeconds.toFixed(2)}; machine load average now ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" / ")} on ${availableParallelism()} cores`,
  );
  lines.push(
    `speed-up 2 vs 1 worker (cold): ${(cold1.seconds / cold2.seconds).toFixed(2)}x; warm vs cold (2 workers): ${(cold2.seconds / warm2.seconds).toFixed(1)}x faster`,
  );
  lines.push(
    `targets: cold < 30 s ${cold2.seconds < 30 ? "met" : "MISSED"} (${cold2.seconds.toFixed(1)} s), warm < 2 s ${warm2.seconds < 2 ? "met" : "MISSED"} (${warm2.seconds.toFixed(2)} s)`,
  );
  lines.push(`all four runs gave identical rows: ${same ? "yes" : "NO"}`);
  const slowest = [...cold1.result.taskTimes].sort((a, b) => b.ms - a.ms);
  const totalTask = slowest.reduce((sum, t) => sum + t.ms, 0);
  lines.push(
    `task times on 1 worker (cold): total ${(totalTask / 1000).toFixed(1)} s; slowest ${slowest
      .slice(0, 5)
      .map((t) => `${t.splitter} ${(t.ms / 1000).toFixed(1)} s`)
      .join(", ")}`,
  );
  process.stdout.write(lines.join("\n") + "\n");
  if (values.json) {
    writeFileSync(
      values.json,
      JSON.stringify(
        {
          corpus: corpusPath,
          times: { cold1: cold1.seconds, cold2: cold2.seconds, warm2: warm2.seconds, warm1: warm1.seconds },
          identical: same,
          rows: rows.map(flattenRow),
        },
        null,
        2,
      ),
    );
  }
  if (!same) process.exitCode = 1;
}

await main();

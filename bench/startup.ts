// Start-up of the CLI, where every user waits: the CPU and wall time of `seamlab --help` and of two commands' --help,
// run as a user runs them (`node bin/seamlab.js`, the build warm), against the same commands through tsx
// (SEAMLAB_BUILD=0, the TypeScript sources) and, with --baseline REV, against a fresh clone of that commit, all in
// the same alternating rounds. Each run is timed under /usr/bin/time (bench/process-time.ts): wall, and CPU user +
// system. A round repeats each command until it has spent BENCH_MIN_ROUND_MS (100) of wall time.
//
//   npm run bench:startup [-- --baseline REV]
//
// Last lines: `--help: N ms CPU (target 300 ms)` per contender, and the ratio to the baseline.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { projectRoot } from "../src/core/project";
import { median } from "../src/stats/quantiles";
import { freshClone, resolveCommit } from "./checkout";
import { timeProcess } from "./process-time";

const { values } = parseArgs({ options: { baseline: { type: "string" } } });
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const minRoundMs = Number(process.env.BENCH_MIN_ROUND_MS ?? 100);
const root = projectRoot();

interface Contender {
  name: string;
  dir: string;
  env: NodeJS.ProcessEnv;
}

const contenders: Contender[] = [
  { name: "HEAD", dir: root, env: process.env },
  { name: "HEAD through tsx", dir: root, env: { ...process.env, SEAMLAB_BUILD: "0" } },
];
let clone: string | undefined;
if (values.baseline !== undefined) {
  const commit = resolveCommit(values.baseline, root);
  clone = freshClone(root, commit);
  process.on("exit", () => rmSync(clone!, { recursive: true, force: true }));
  contenders.push({ name: `baseline ${commit.slice(0, 10)}`, dir: clone, env: process.env });
}

const commands = [["--help"], ["sweep", "--help"], ["report", "--help"]];

function run(contender: Contender, args: string[]): { cpuMs: number; wallMs: number } {
  const { time, run } = timeProcess([process.execPath, join(contender.dir, "bin", "seamlab.js"), ...args], {
    cwd: contender.dir,
    env: contender.env,
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`${contender.name}: seamlab ${args.join(" ")} failed: ${run.stderr}`);
  return { cpuMs: 1000 * time.cpu, wallMs: 1000 * time.wall };
}

// Warm: the first run after a change builds src/ (and a clone's first run builds its own).
for (const contender of contenders) for (const args of commands) run(contender, args);

const cpu = new Map<string, number[]>();
const wall = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? contenders : [...contenders].reverse();
  for (const contender of order) {
    for (const args of commands) {
      const key = `${contender.name}\t${args.join(" ")}`;
      let passes = 0;
      let spentCpu = 0;
      let spentWall = 0;
      while (spentWall < minRoundMs || passes === 0) {
        const { cpuMs, wallMs } = run(contender, args);
        spentCpu += cpuMs;
        spentWall += wallMs;
        passes++;
      }
      cpu.set(key, [...(cpu.get(key) ?? []), spentCpu / passes]);
      wall.set(key, [...(wall.get(key) ?? []), spentWall / passes]);
    }
  }
}

console.log(`bench:startup: medians of ${rounds} alternating rounds of at least ${minRoundMs} ms each`);
for (const args of commands) {
  const first = median(cpu.get(`${contenders[0].name}\t${args.join(" ")}`)!);
  for (const contender of contenders) {
    const key = `${contender.name}\t${args.join(" ")}`;
    const ratio = contender === contenders[0] ? "" : ` (${(median(cpu.get(key)!) / first).toFixed(2)}x HEAD's CPU)`;
    console.log(
      `seamlab ${args.join(" ")} [${contender.name}]: ${median(cpu.get(key)!).toFixed(0)} ms CPU, ` +
        `${median(wall.get(key)!).toFixed(0)} ms wall${ratio}`,
    );
  }
}
console.log(`--help target: 300 ms of CPU or less (issue 32); HEAD ${median(cpu.get(`HEAD\t--help`)!).toFixed(0)} ms`);

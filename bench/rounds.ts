// Timed rounds of at least `minRoundMs` for contenders that each process a whole corpus once per pass. Each
// contender gets its own number of passes per round, calibrated after a warm-up so that its round lasts about 2
// times the minimum; the figure compared is the time per pass (round time / passes), medians over the rounds. The
// order rotates every round, and a full garbage collection runs before each contender's round (outside its timing)
// so one contender's garbage is not collected on another's clock. Times are process CPU time (user + system): on a
// shared 2-core machine wall-clock time mostly measures the other processes; wall-clock is kept too.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { median } from "../src/stats/quantiles";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

export interface Contender<T> {
  name: string;
  /** One pass over the whole corpus; its result from the last pass is kept for the same-output check. */
  pass: () => T | Promise<T>;
}

export interface ContenderTiming<T> {
  name: string;
  passes: number;
  roundCpuMs: number[];
  roundWallMs: number[];
  /** Median over the rounds of the CPU time per pass. */
  cpuMsPerPass: number;
  wallMsPerPass: number;
  last: T;
}

export interface RoundOptions {
  rounds: number;
  minRoundMs: number;
  /** Called after each round with the timings so far (for a progress line). */
  onRound?: (round: number, timings: ContenderTiming<unknown>[]) => void;
}

function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function timePasses<T>(contender: Contender<T>, passes: number): Promise<{ cpu: number; wall: number; last: T }> {
  collectGarbage();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let last = await contender.pass();
  for (let p = 1; p < passes; p++) last = await contender.pass();
  return { cpu: cpuMsSince(c0), wall: performance.now() - t0, last };
}

/** Times the contenders in `rounds` rotating rounds of at least about `minRoundMs` each (see the file comment). */
export async function timeRounds<T>(contenders: Contender<T>[], options: RoundOptions): Promise<ContenderTiming<T>[]> {
  const timings: ContenderTiming<T>[] = [];
  for (const contender of contenders) {
    // Warm-up (load and compile), then the fastest of three passes; a pass of 10 minimums or more is one a round.
    let fastest = (await timePasses(contender, 1)).cpu;
    if (fastest < 10 * options.minRoundMs)
      for (let i = 0; i < 3; i++) fastest = Math.min(fastest, (await timePasses(contender, 1)).cpu);
    const passes = Math.max(1, Math.ceil((2 * options.minRoundMs) / Math.max(fastest, 0.01)));
    timings.push({
      name: contender.name,
      passes,
      roundCpuMs: [],
      roundWallMs: [],
      cpuMsPerPass: 0,
      wallMsPerPass: 0,
      last: undefined as T,
    });
  }
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (round + k) % contenders.length;
      const { cpu, wall, last } = await timePasses(contenders[i], timings[i].passes);
      timings[i].roundCpuMs.push(cpu);
      timings[i].roundWallMs.push(wall);
      timings[i].last = last;
    }
    options.onRound?.(round, timings);
  }
  for (const t of timings) {
    t.cpuMsPerPass = median(t.roundCpuMs) / t.passes;
    t.wallMsPerPass = median(t.roundWallMs) / t.passes;
  }
  return timings;
}

/** One line per round shorter than `minRoundMs` of CPU (empty when every round was long enough). */
export function shortRounds(timings: ContenderTiming<unknown>[], minRoundMs: number, what: string): string[] {
  const lines: string[] = [];
  for (const t of timings) {
    t.roundCpuMs.forEach((ms, round) => {
      if (ms < minRoundMs)
        lines.push(`${what}: ${t.name} round ${round + 1} took ${ms.toFixed(0)} ms of CPU, under ${minRoundMs} ms`);
    });
  }
  return lines;
}

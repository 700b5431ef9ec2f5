import { readdirSync, readFileSync } from "node:fs";

// Where this process's threads spent their time, from Linux's /proc (undefined or empty elsewhere): on a shared
// machine wall time mostly measures the neighbours, so time on a core and time waiting for one are told apart.

/** The fields of a /proc stat line after the command name (which may hold spaces and parentheses). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** A /proc file's text, or undefined where there is none. */
function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** CPU milliseconds this thread has used (user + system), from /proc/thread-self/stat. */
export function threadCpuMs(): number | undefined {
  const stat = readProc("/proc/thread-self/stat");
  if (stat === undefined) return undefined;
  const fields = statFields(stat);
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks of 10 ms
}

/** This thread's kernel id (its /proc/self/task entry), so that another thread can read its times. */
export function osThreadId(): number | undefined {
  const stat = readProc("/proc/thread-self/stat");
  return stat === undefined ? undefined : Number(stat.split(" ", 1)[0]);
}

export interface ThreadTimes {
  cpuMs: number;
  /** ms runnable but waiting for a core */
  waitMs: number;
  /** ms since boot (10 ms resolution) */
  startedMs: number;
}

/** Starts a task's clocks: `stop()` gives when it started (epoch ms), its wall ms and this thread's CPU ms. */
export function taskClock() {
  const startedAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  const cpu0 = threadCpuMs();
  const stop = () => {
    const cpu1 = threadCpuMs();
    const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    return { startedAt, ms: performance.now() - started, cpuMs };
  };
  return { cpu0, stop };
}

/** Times of every live thread of this process, by kernel thread id. */
export function processThreadTimes(): Map<number, ThreadTimes> {
  const times = new Map<number, ThreadTimes>();
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return times;
  }
  for (const tid of tids) {
    const schedstat = readProc(`/proc/self/task/${tid}/schedstat`);
    const stat = readProc(`/proc/self/task/${tid}/stat`);
    if (schedstat === undefined || stat === undefined) continue; // the thread ended meanwhile
    const [cpu, wait] = schedstat.split(" ").map(Number);
    times.set(Number(tid), { cpuMs: cpu / 1e6, waitMs: wait / 1e6, startedMs: Number(statFields(stat)[19]) * 10 });
  }
  return times;
}

/** Milliseconds since boot, on the clock of `ThreadTimes.startedMs`. */
export function uptimeMs(): number | undefined {
  const uptime = readProc("/proc/uptime");
  return uptime === undefined ? undefined : Number(uptime.split(" ")[0]) * 1000;
}

import { readdirSync, readFileSync } from "node:fs";

// Where the threads of this process spent their time, from Linux's /proc (undefined or empty elsewhere). On a
// shared machine wall time mostly measures the neighbours; these split it into time on a core, time waiting for
// one (runnable, the neighbours' doing) and time blocked (waiting on something of ours: a lock, another thread,
// the next task), which is what an idle machine would still show.

/** The fields of a /proc stat line after the command name (which may hold spaces and parentheses). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** CPU milliseconds this thread has used (user + system), from /proc/thread-self/stat. */
export function threadCpuMs(): number | undefined {
  try {
    const fields = statFields(readFileSync("/proc/thread-self/stat", "utf8"));
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in clock ticks of 10 ms
  } catch {
    return undefined;
  }
}

/** This thread's kernel id (the name of its /proc/self/task entry), so that another thread can read its times. */
export function osThreadId(): number | undefined {
  try {
    return Number(readFileSync("/proc/thread-self/stat", "utf8").split(" ", 1)[0]);
  } catch {
    return undefined;
  }
}

export interface ThreadTimes {
  /** ms on a core */
  cpuMs: number;
  /** ms runnable but waiting for a core */
  waitMs: number;
  /** when the thread started, ms since boot (10 ms resolution) */
  startedMs: number;
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
    try {
      const [cpu, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
      const fields = statFields(readFileSync(`/proc/self/task/${tid}/stat`, "utf8"));
      times.set(Number(tid), { cpuMs: cpu / 1e6, waitMs: wait / 1e6, startedMs: Number(fields[19]) * 10 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return times;
}

/** Milliseconds since boot, on the clock of `ThreadTimes.startedMs`. */
export function uptimeMs(): number | undefined {
  try {
    return Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000;
  } catch {
    return undefined;
  }
}

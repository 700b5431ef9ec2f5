// A one-line progress bar with ETA on stderr, hand-written: it needs only `\r` redraws, a throttle and an ETA that
// ignores cache hits, where the common packages pull in terminal-detection stacks.

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

interface ProgressOptions {
  stream?: ProgressStream;
  quiet?: boolean;
  label?: string;
  /** Clock in ms (tests pass a fake one). */
  now?: () => number;
  /** Default 100. */
  throttleMs?: number;
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "?";
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, "0")}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

const etaText = (done: number, total: number, etaMs: number | undefined) =>
  done >= total ? "done" : etaMs === undefined ? "ETA ?" : `ETA ${formatDuration(etaMs)}`;

/** The text of one progress line; `etaMs` undefined when no rate is known yet. */
export function formatProgress(
  done: number,
  total: number,
  elapsedMs: number,
  etaMs: number | undefined,
  width = 24,
  label = "",
): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  const bar = "#".repeat(filled) + "-".repeat(width - filled);
  return (
    `${label ? label + " " : ""}[${bar}] ${done}/${total} ${Math.round(share * 100)}% ` +
    `${formatDuration(elapsedMs)} ${etaText(done, total, etaMs)}`
  );
}

export function createProgress(total: number, options: ProgressOptions = {}) {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const throttle = options.throttleMs ?? 100;
  const enabled = !options.quiet && stream.isTTY === true;
  const start = now();
  let done = 0;
  let skipped = 0;
  let lastDraw = -Infinity;
  const draw = (force: boolean) => {
    if (!enabled) return;
    const t = now();
    if (!force && t - lastDraw < throttle) return;
    lastDraw = t;
    const computed = done - skipped;
    const elapsed = t - start;
    const eta = computed > 0 ? (elapsed / computed) * (total - done) : undefined;
    const line = formatProgress(done, total, elapsed, eta, 24, options.label ?? "");
    const columns = stream.columns && stream.columns > 20 ? stream.columns : 100;
    stream.write(`\r${line.slice(0, Math.max(10, columns - 1)).padEnd(Math.min(columns - 1, 100))}`);
  };
  // Elapsed time and ETA keep moving during a long task.
  const timer = enabled && options.now === undefined ? setInterval(() => draw(true), 1000) : undefined;
  timer?.unref();
  return {
    enabled, // a TTY and not quiet
    tick(n = 1) {
      done += n;
      draw(false);
    },
    /** Items done that cost no time (cache hits): they count toward the bar but not the ETA rate. */
    skip(n: number) {
      done += n;
      skipped += n;
      draw(false);
    },
    done() {
      if (timer) clearInterval(timer);
      draw(true);
      if (enabled) stream.write("\n");
    },
  };
}

/**
 * The ETA of items run `jobs` at a time: each unfinished item takes its earlier run's time, else the mean of this
 * run's finished ones. Undefined while nothing is known about an unfinished item.
 */
export function etaFromItemTimes(
  finishedMs: readonly number[],
  unfinishedPreviousMs: readonly (number | undefined)[],
  jobs: number,
): number | undefined {
  const meanFinished =
    finishedMs.length === 0 ? undefined : finishedMs.reduce((sum, ms) => sum + ms, 0) / finishedMs.length;
  let total = 0;
  for (const previous of unfinishedPreviousMs) {
    const expected = previous ?? meanFinished;
    if (expected === undefined) return undefined;
    total += expected;
  }
  return total / Math.max(1, Math.min(jobs, unfinishedPreviousMs.length || 1));
}

/** "3/7 notebooks, 4m12s elapsed, ETA 2m30s" (or "ETA ?" while unknown, "done" at the end). */
export function formatItemsEta(
  done: number,
  total: number,
  elapsedMs: number,
  etaMs: number | undefined,
  noun: string,
) {
  return `${done}/${total} ${noun}, ${formatDuration(elapsedMs)} elapsed, ${etaText(done, total, etaMs)}`;
}

/**
 * A one-line progress bar with ETA on stderr. Hand-written (about 60 lines) rather than a dependency: it
 * needs only `\r` redraws, a throttle and an ETA that ignores cache hits, and the common packages pull in
 * terminal-detection stacks we already get from `stream.isTTY`.
 */

export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  stream?: ProgressStream;
  /** Never draw (the CLI's --quiet). */
  quiet?: boolean;
  label?: string;
  /** Clock in ms (tests pass a fake one). */
  now?: () => number;
  /** Minimum ms between redraws. Default 100. */
  throttleMs?: number;
}

export interface Progress {
  /** Whether anything is drawn (a TTY and not quiet). */
  enabled: boolean;
  /** Marks `n` items done. Items done before the first real work (cache hits) should go through `skip`. */
  tick(n?: number): void;
  /** Marks items done that cost no time (cache hits): they count toward the bar but not the ETA rate. */
  skip(n: number): void;
  /** Draws the final state and ends the line. */
  done(): void;
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
  const eta = done >= total ? "done" : etaMs === undefined ? "ETA ?" : `ETA ${formatDuration(etaMs)}`;
  return (
    `${label ? label + " " : ""}[${bar}] ${done}/${total} ${Math.round(share * 100)}% ` +
    `${formatDuration(elapsedMs)} ${eta}`
  );
}

export function createProgress(total: number, options: ProgressOptions = {}): Progress {
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
  // Redraw once a second between ticks so elapsed time and ETA keep moving during a long task.
  const timer = enabled && options.now === undefined ? setInterval(() => draw(true), 1000) : undefined;
  timer?.unref();
  return {
    enabled,
    tick(n = 1) {
      done += n;
      draw(false);
    },
    skip(n) {
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
 * The ETA of items run `jobs` at a time (notebooks of a report), from per-item times: each item not finished yet
 * is expected to take its time from an earlier run when one is known, else the mean of this run's finished items;
 * their sum is spread over the jobs. Undefined while nothing is known about an unfinished item.
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
  const eta = done >= total ? "done" : etaMs === undefined ? "ETA ?" : `ETA ${formatDuration(etaMs)}`;
  return `${done}/${total} ${noun}, ${formatDuration(elapsedMs)} elapsed, ${eta}`;
}

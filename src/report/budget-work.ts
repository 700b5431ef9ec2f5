// The limits `--budget MIN` and `--max-memory GB` set for the report and the CLI, and the words they print (the
// planner is `plan/`).
import { SeamlabError } from "../core/errors";

/** A duration as the budget's lines and pages write it: "8 s" under a minute, else "2.5 min". */
export const minutes = (ms: number) =>
  ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(1)} min`;

/** Twice the planned time, and at least 2 min over it: the plan is in CPU time, and a busy machine takes longer. */
export function notebookTimeLimitMs(plannedMs: number): number {
  return Math.round(Math.max(2 * plannedMs, plannedMs + 120_000));
}

/** The page of a notebook stopped at its time limit (`notebookTimeLimitMs`). */
export function overrunNote(context: {
  prefix: string;
  plannedMs: number;
  limitMs: number;
  budgetMinutes: number;
}): string {
  return (
    `Under \`--budget ${context.budgetMinutes}\`, this notebook was **stopped** at its time limit of ` +
    `${minutes(context.limitMs)} (twice its planned ${minutes(context.plannedMs)}, and at least 2 min over it), so ` +
    `none of its results are shown. The plan is made from a pilot timed in CPU time; a notebook takes longer when ` +
    `the machine is busy. The report was published with the other notebooks. Run it alone with ` +
    `\`--only ${context.prefix}\` or raise \`--budget\`.`
  );
}

/** Corpora above this many characters are swept in the kernel's own thread (no worker copies). */
export const inThreadChars = 200_000_000;

/** Reads `--max-memory GB`: a number of gigabytes above 0.5 and at most 1,024. */
export function parseMaxMemory(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const gb = /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!(gb >= 0.5 && gb <= 1024))
    throw new SeamlabError(
      `--max-memory must be a number of gigabytes from 0.5 to 1,024, e.g. --max-memory 4; got "${text}".`,
    );
  return gb * 1024 ** 3;
}

/** `seamlab report`'s per-cell timeout when `--timeout` is not given. */
export const defaultCellTimeoutSeconds = 300;

/**
 * The per-cell timeout: `--timeout` when given; else the default, raised under `--budget` to the time limit of a
 * notebook planned at the whole budget (one cell of 03 at 1 GB takes over 5 min; the notebook's limit stops it).
 */
export function cellTimeoutSeconds(given: number | undefined, budgetMinutes: number | undefined): number {
  if (given !== undefined) return given;
  if (budgetMinutes === undefined) return defaultCellTimeoutSeconds;
  return Math.max(defaultCellTimeoutSeconds, Math.ceil(notebookTimeLimitMs(budgetMinutes * 60_000) / 1000));
}

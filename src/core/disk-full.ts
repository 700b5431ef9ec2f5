// A full disk (ENOSPC, or a quota: EDQUOT) said the way a user can act on it: which path, during what, how much is
// free and what to free (Node's message names neither file nor operation). Callers remove what the write left first.
import { existsSync, statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SeamlabError } from "./errors";

export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** "1.2 MB" */
function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  for (; value >= 1024 && unit < 3; unit++) value /= 1024;
  return `${value.toFixed(value < 10 ? 1 : 0)} ${["KB", "MB", "GB", "TB"][unit]}`;
}

/** "1.2 MB free of 10 GB" on the file system holding `path` (its nearest existing folder), or "". */
function freeSpaceText(path: string): string {
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    const stats = statfsSync(at);
    return `${bytesText(stats.bavail * stats.bsize)} free of ${bytesText(stats.blocks * stats.bsize)}`;
  } catch {
    return "";
  }
}

export interface DiskFullContext {
  path: string;
  /** what was being done, after "while": "writing the report into its staging folder" */
  operation: string;
  /** bytes the operation needs in all, when known */
  needs?: number;
  /** what to do, e.g. "point --cache-dir at another disk or run with --no-cache" */
  advice: string;
  /** what was cleaned up, e.g. "the partly written staging folder was removed" */
  cleaned?: string;
}

export function diskFullError(context: DiskFullContext): SeamlabError {
  const needs = context.needs !== undefined ? `it needs about ${bytesText(context.needs)}` : "";
  const facts = [freeSpaceText(context.path), needs].filter(Boolean).join("; ");
  return new SeamlabError(
    `no space left on the disk holding ${context.path} while ${context.operation}` +
      (facts ? ` (${facts})` : "") +
      (context.cleaned ? `; ${context.cleaned}` : "") +
      `. Free space there: ${context.advice}.`,
  );
}

/**
 * A full disk (ENOSPC, or a quota: EDQUOT) said the way a user can act on it: which path, during what, how much
 * space is free there and what to free. Node's own message ("ENOSPC: no space left on device, write") names
 * neither the file nor the operation. Callers remove what the failed write left (a staging folder, a temp file)
 * before throwing this, so a failed run does not keep the disk full.
 */
import { existsSync, statfsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SeamlabError } from "./errors";

export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

/** "1.2 MB" */
export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Free and total bytes of the file system holding `path` (its nearest existing folder), or undefined. */
function freeSpace(path: string): { free: number; total: number } | undefined {
  let at = resolve(path);
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  try {
    const stats = statfsSync(at);
    return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
  } catch {
    return undefined;
  }
}

export interface DiskFullContext {
  /** the file or folder being written */
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

/** The SeamlabError for a full disk (see the module comment). */
export function diskFullError(context: DiskFullContext): SeamlabError {
  const space = freeSpace(context.path);
  const free = space ? `${bytesText(space.free)} free of ${bytesText(space.total)}` : "";
  const needs = context.needs !== undefined ? `it needs about ${bytesText(context.needs)}` : "";
  const facts = [free, needs].filter(Boolean).join("; ");
  return new SeamlabError(
    `no space left on the disk holding ${context.path} while ${context.operation}` +
      (facts ? ` (${facts})` : "") +
      (context.cleaned ? `; ${context.cleaned}` : "") +
      `. Free space there: ${context.advice}.`,
  );
}

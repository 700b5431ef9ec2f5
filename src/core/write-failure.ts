/**
 * A write the file system refused (a full disk or quota, no permission, a read-only disk), said as one line a user
 * can act on: which path, during what, and what to do. Node's own message ("ENOSPC: no space left on device,
 * write") names neither the file nor what seamlab was doing. Staged and atomic writes say it themselves
 * (disk-full.ts); this is the CLI's last word for any other write: the journal, a kernel's files, standard output.
 */
import { diskFullError, isDiskFull } from "./disk-full";

/** Codes of a refused access this module explains besides a full disk (ENOSPC, EDQUOT) and a read-only one (EROFS). */
const PERMISSION = new Set(["EACCES", "EPERM"]);

/** What was being done, by the failing system call ("writing", "creating the folder"). */
function operationOf(syscall: string | undefined): string {
  switch (syscall) {
    case "write":
    case "writev":
    case "close":
    case "fsync":
    case "ftruncate":
      return "writing";
    case "open":
      return "opening";
    case "mkdir":
      return "creating the folder";
    case "mkdtemp":
      return "creating a temporary folder";
    case "rename":
      return "moving a file to";
    case "copyfile":
      return "copying a file to";
    case "link":
    case "symlink":
      return "linking a file to";
    case "unlink":
    case "rmdir":
    case "rm":
      return "removing";
    case "read":
      return "reading";
    case "scandir":
    case "opendir":
      return "reading the folder";
    case "stat":
    case "lstat":
    case "access":
      return "looking at";
    default:
      return syscall ?? "writing";
  }
}

export interface WriteFailureContext {
  /**
   * The file being written when the error does not name one (a write to an open file names none): e.g. where
   * standard output goes. Without it, `outputs` are named as the places the run writes to.
   */
  path?: string;
  /** The run's outputs, as "--flag path", named when the failing file is not known. */
  outputs?: readonly string[];
}

/**
 * The one-line message for `error` when it is a refused write (ENOSPC, EDQUOT, EACCES, EPERM, EROFS), else
 * undefined. The path is the error's own (the destination of a rename or copy), else `context.path`.
 */
export function writeFailureMessage(error: unknown, context: WriteFailureContext = {}): string | undefined {
  const failure = error as NodeJS.ErrnoException & { dest?: string };
  const code = failure?.code;
  if (typeof code !== "string" || !(isDiskFull(error) || PERMISSION.has(code) || code === "EROFS")) return undefined;
  const path = failure.dest ?? failure.path ?? context.path;
  const operation = operationOf(failure.syscall);
  const outputs = context.outputs && context.outputs.length > 0 ? `; it writes ${context.outputs.join(", ")}` : "";
  const where = path ?? `one of this run's files (the system did not say which${outputs})`;
  if (isDiskFull(error)) {
    if (path !== undefined)
      return diskFullError({
        path,
        operation: `${operation} ${path}`,
        advice: "delete files you no longer need on that disk, or write elsewhere",
      }).message;
    return (
      `no space left on the disk (${code}) while ${operation} ${where}. Free space on that disk (delete files you ` +
      `no longer need, old reports, the cache folder), or write elsewhere.`
    );
  }
  if (code === "EROFS")
    return `cannot write ${where}: it is on a read-only disk (EROFS, while ${operation} it). Write elsewhere.`;
  // opening or reading may have been a read: the advice then fits either
  const writing = !["open", "read", "scandir", "opendir", "stat", "lstat", "access"].includes(failure.syscall ?? "");
  return writing
    ? `permission denied (${code}) while ${operation} ${where}. Give a path you can write to, or change the ` +
        `permissions of that file or its folder.`
    : `permission denied (${code}) while ${operation} ${where}. Check the permissions of that file and its ` +
        `folder, or give another path.`;
}

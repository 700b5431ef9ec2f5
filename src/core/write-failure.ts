// A write the file system refused (a full disk or quota, no permission, a read-only disk) as one line a user can act
// on: which path, during what, what to do. The CLI's last word for writes that are not staged or atomic.
import { diskFullError, isDiskFull } from "./disk-full";

/** What was being done, by the failing system call (others: the call's own name). */
const OPERATIONS = new Map(
  Object.entries({
    writing: "write writev close fsync ftruncate",
    opening: "open",
    "creating the folder": "mkdir",
    "creating a temporary folder": "mkdtemp",
    "moving a file to": "rename",
    "copying a file to": "copyfile",
    "linking a file to": "link symlink",
    removing: "unlink rmdir rm",
    reading: "read",
    "reading the folder": "scandir opendir",
    "looking at": "stat lstat access",
  }).flatMap(([operation, calls]) => calls.split(" ").map((call) => [call, operation] as const)),
);

/** Calls that may have been a read: the permission advice then fits either. */
const MAYBE_READ = ["open", "read", "scandir", "opendir", "stat", "lstat", "access"];

export interface WriteFailureContext {
  /** The file being written when the error names none (a write to an open file), e.g. where stdout goes. */
  path?: string;
  /** The run's outputs, as "--flag path", named when the failing file is not known. */
  outputs?: readonly string[];
}

/** The one-line message for a refused write (ENOSPC, EDQUOT, EACCES, EPERM, EROFS), else undefined. */
export function writeFailureMessage(error: unknown, context: WriteFailureContext = {}): string | undefined {
  const failure = error as NodeJS.ErrnoException & { dest?: string };
  const code = failure?.code;
  if (typeof code !== "string" || !(isDiskFull(error) || ["EACCES", "EPERM", "EROFS"].includes(code))) return undefined;
  const path = failure.dest ?? failure.path ?? context.path;
  const syscall = failure.syscall;
  const operation = syscall === undefined ? "writing" : (OPERATIONS.get(syscall) ?? syscall);
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
  return MAYBE_READ.includes(syscall ?? "")
    ? `permission denied (${code}) while ${operation} ${where}. Check the permissions of that file and its ` +
        `folder, or give another path.`
    : `permission denied (${code}) while ${operation} ${where}. Give a path you can write to, or change the ` +
        `permissions of that file or its folder.`;
}

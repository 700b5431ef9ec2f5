import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFailureMessage } from "../../src/core/write-failure";

/** An error shaped as Node's own for `code` in `syscall` (with the path Node names, when it names one). */
function nodeError(code: string, syscall: string, path?: string, dest?: string): NodeJS.ErrnoException {
  const error = new Error(`${code}: from the test, ${syscall}`) as NodeJS.ErrnoException & { dest?: string };
  error.code = code;
  error.syscall = syscall;
  if (path !== undefined) error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}

test("a full disk names the path, the operation, the free space there and what to free", () => {
  const message = writeFailureMessage(nodeError("ENOSPC", "mkdir", "/tmp/seamlab-out/cache"));
  assert.match(
    message ?? "",
    /^no space left on the disk holding \/tmp\/seamlab-out\/cache while creating the folder \/tmp\/seamlab-out\/cache \(.* free of .*\)\. Free space there: delete files/,
  );
});

test("a rename or copy names its destination, where the space or permission was needed", () => {
  const message = writeFailureMessage(nodeError("EDQUOT", "rename", "/a/staging", "/b/report"));
  assert.match(message ?? "", /disk holding \/b\/report while moving a file to \/b\/report/);
});

test("a write to an open file, which Node names no path for, names the run's outputs instead", () => {
  const message = writeFailureMessage(nodeError("ENOSPC", "write"), { outputs: ["--out q.csv", "--cache-dir c"] });
  assert.equal(
    message,
    "no space left on the disk (ENOSPC) while writing one of this run's files (the system did not say which; it " +
      "writes --out q.csv, --cache-dir c). Free space on that disk (delete files you no longer need, old reports, " +
      "the cache folder), or write elsewhere.",
  );
});

test("no permission and a read-only disk each say what to do, naming the path and the operation", () => {
  assert.equal(
    writeFailureMessage(nodeError("EACCES", "mkdir", "/srv/out")),
    "permission denied (EACCES) while creating the folder /srv/out. Give a path you can write to, or change the " +
      "permissions of that file or its folder.",
  );
  // opening may have been for reading: the advice fits both
  assert.equal(
    writeFailureMessage(nodeError("EACCES", "open", "/srv/q.csv")),
    "permission denied (EACCES) while opening /srv/q.csv. Check the permissions of that file and its folder, or " +
      "give another path.",
  );
  assert.equal(
    writeFailureMessage(nodeError("EROFS", "unlink", "/mnt/cd/old.html")),
    "cannot write /mnt/cd/old.html: it is on a read-only disk (EROFS, while removing it). Write elsewhere.",
  );
  assert.match(writeFailureMessage(nodeError("EPERM", "write"), { path: "/dev/stdout-file" }) ?? "", /EPERM.*stdout/);
});

test("other errors are not write failures: left to the caller as they are", () => {
  assert.equal(writeFailureMessage(nodeError("ENOENT", "open", "/x")), undefined);
  assert.equal(writeFailureMessage(new Error("plain")), undefined);
  assert.equal(writeFailureMessage(undefined), undefined);
});

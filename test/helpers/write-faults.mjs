// A refused write, injected at the file-system boundary of a real seamlab process: a test starts seamlab with this
// file preloaded (`writeFaultEnv` in write-faults.ts puts `--import` of it into NODE_OPTIONS), and it replaces
// fs.openSync and fs.writeFileSync (the ES module bindings synced) so that one path fails as a full disk, a quota, a
// missing permission or a read-only disk would fail it.
//   SEAMLAB_WRITE_FAULT=<code>:<syscall>:<text>   e.g. ENOSPC:write:.seamlab-lock
//     syscall "open":  opening a path that contains <text> fails with <code>, naming the path (as Node does)
//     syscall "write": writing to an open file whose path contains <text> fails with <code>, naming no path (as
//                      Node's own write to a file descriptor does)
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

const [code, syscall, text] = (process.env.SEAMLAB_WRITE_FAULT ?? "").split(":");

function fault(path) {
  const error = new Error(`${code}: injected by write-faults.mjs, ${syscall}${path ? ` '${path}'` : ""}`);
  error.code = code;
  error.syscall = syscall;
  if (path) error.path = path;
  return error;
}

const pathOfFd = (fd) => {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return "";
  }
};

if (code && text) {
  const { openSync, writeFileSync } = fs;
  fs.openSync = function (path, ...rest) {
    if (syscall === "open" && String(path).includes(text)) throw fault(String(path));
    return openSync.call(this, path, ...rest);
  };
  fs.writeFileSync = function (file, ...rest) {
    if (syscall === "write" && typeof file === "number" && pathOfFd(file).includes(text)) throw fault();
    return writeFileSync.call(this, file, ...rest);
  };
  syncBuiltinESMExports();
}

// Preloaded into seamlab's tslab kernels and the kernelspec's (node --import): a worker thread kills the kernel once
// its starter is gone (even SIGKILLed), while a cell blocks too. The starter is `seamlab report`
// (SEAMLAB_KERNEL_PARENT) or Jupyter's kernel manager (JPY_PARENT_PID, a pid on POSIX only; a handle on Windows).
// A kernel's worker threads inherit the preload: the main thread's watch covers them (it kills the whole process).
import { isMainThread } from "node:worker_threads";
import { watchParent } from "../core/parent-watch.mjs";

const parent = Number(
  process.env.SEAMLAB_KERNEL_PARENT || (process.platform === "win32" ? "" : process.env.JPY_PARENT_PID),
);
if (isMainThread && parent > 0) watchParent({ parent, signal: "SIGKILL" });

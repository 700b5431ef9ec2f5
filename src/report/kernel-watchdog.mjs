// Preloaded into every tslab kernel seamlab starts and into the kernelspec's (node --import): kills the kernel as
// soon as the process that started it is gone, even after a SIGKILL, from a worker thread that runs while a cell
// blocks. The parent is `seamlab report` (SEAMLAB_KERNEL_PARENT) or Jupyter's kernel manager (JPY_PARENT_PID, a pid
// on POSIX only; on Windows it holds a handle).
import { watchParent } from "../core/parent-watch.mjs";

const parent = Number(
  process.env.SEAMLAB_KERNEL_PARENT || (process.platform === "win32" ? "" : process.env.JPY_PARENT_PID),
);
if (parent > 0) watchParent({ parent, signal: "SIGKILL" });

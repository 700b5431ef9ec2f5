// Preloaded into every tslab kernel that `seamlab report` starts (node --import). A worker thread, which keeps
// running while a cell blocks the kernel's own event loop, kills the kernel as soon as the process that started
// it is gone, even when that process was killed with SIGKILL and had no chance to clean up.
import { Worker } from "node:worker_threads";

const parent = Number(process.env.SEAMLAB_KERNEL_PARENT);
if (parent > 0) {
  const code = `
    const parent = ${parent};
    const gone = () => {
      if (process.ppid !== parent) return true;
      try { process.kill(parent, 0); return false; } catch (error) { return error.code !== "EPERM"; }
    };
    setInterval(() => { if (gone()) process.kill(process.pid, "SIGKILL"); }, 250);
  `;
  const worker = new Worker(code, { eval: true, stdout: false, stderr: false });
  worker.unref();
}

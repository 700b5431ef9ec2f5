// Preloaded into every tslab kernel that `seamlab report` starts and into the kernelspec's (node --import). A worker
// thread, which keeps running while a cell blocks the kernel's own event loop, kills the kernel as soon as the
// process that started it is gone, even when that process was killed with SIGKILL and had no chance to clean up.
// The parent is `seamlab report` (SEAMLAB_KERNEL_PARENT) or, for a kernel Jupyter started (nbconvert, JupyterLab,
// VS Code), Jupyter's kernel manager: jupyter_client passes its pid as JPY_PARENT_PID on POSIX, as ipykernel's own
// parent poller expects (on Windows the variable holds a handle, not a pid, and is ignored).
// Reparenting (the parent died and the kernel was handed to init) is checked against the parent the kernel had at
// start: a launcher may pass on JPY_PARENT_PID from a process further up than its direct parent.
import { watchParent } from "../core/parent-watch.mjs";

const parent = Number(
  process.env.SEAMLAB_KERNEL_PARENT || (process.platform === "win32" ? "" : process.env.JPY_PARENT_PID),
);
// A parent already gone at start is a stale variable passed down from elsewhere, not this kernel's parent.
if (parent > 0) watchParent({ parent, signal: "SIGKILL" });

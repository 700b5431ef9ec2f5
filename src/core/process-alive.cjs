// Whether a process is still there: the one copy for every kind of process seamlab runs. Plain Node ES modules
// (bin/seamlab.js, core/parent-watch.mjs, build/land.cjs) import it, TypeScript run by tsx or bundled by esbuild
// imports it, and tslab, which compiles the notebooks' imports as CommonJS and cannot load an ES module, requires
// it. Hence CommonJS, with its types in process-alive.d.cts, and no require() of its own (esbuild's ES module
// bundles cannot carry one).
"use strict";

/** True when a process with this id is running (signal 0 probes without sending anything). */
function processAlive(pid) {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

module.exports = { processAlive };

// CommonJS without a require() of its own: plain Node scripts, tsx, esbuild bundles and tslab (which cannot load
// an ES module) all load this one copy.
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

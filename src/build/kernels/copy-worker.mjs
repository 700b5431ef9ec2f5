// Compiles src/ for the report's kernels while they start (copy.ts). Worker threads do not inherit the
// parent's tsx loader, so it is registered here.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { prepareKernelSources } = await import("./copy.ts");
const result = prepareKernelSources(workerData.root, workerData.key, (nodeGlobals) =>
  parentPort.postMessage({ nodeGlobals }),
);
parentPort.postMessage({ result });

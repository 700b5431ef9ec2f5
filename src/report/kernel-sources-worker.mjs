// Worker thread that compiles src/ for the report's kernels (kernel-sources.ts startKernelSources) while they
// start. Worker threads do not inherit the parent's tsx loader, so it is registered here (as in
// experiment/worker-entry.mjs).
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { prepareKernelSources } = await import("./kernel-sources.ts");
const result = prepareKernelSources(workerData.root, workerData.key, (nodeGlobals) =>
  parentPort.postMessage({ nodeGlobals }),
);
parentPort.postMessage({ result });

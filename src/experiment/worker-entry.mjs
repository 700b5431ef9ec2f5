// Worker-thread entry for experiment grids. Worker threads do not inherit a TypeScript loader registered
// with tsx's `register()` in the parent (the CLI, tslab), so this plain-JS file registers tsx in the worker
// and then loads the TypeScript task. Under `node --import tsx` the worker already has tsx; registering
// again is harmless.
import { register } from "tsx/esm/api";

register();
const { runTask } = await import("./worker.ts");

export { runTask };

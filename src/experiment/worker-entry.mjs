// Worker threads do not inherit a loader registered with tsx's `register()` in the parent, so this entry registers
// tsx (again is harmless) before loading the TypeScript task.
import { register } from "tsx/esm/api";

register();
const { runTask } = await import("./worker.ts");

export { runTask };

// Starts one of src/cli/main.ts's entries (`main` for the seamlab command, `defaultReport` for `npm run report`)
// from src/ built as JavaScript (src/build/ensure-built.cjs: once per version of src/), else from the TypeScript
// sources through tsx, so both work right after `npm ci` either way.
import { fileURLToPath, pathToFileURL } from "node:url";
import { watchParent } from "../src/core/parent-watch.mjs";
import { ensureBuilt } from "../src/build/ensure-built.cjs";

/**
 * Runs `entry(argv)` and sets the exit code it returns.
 * @param {"main" | "defaultReport"} entry
 * @param {string[]} argv
 */
export async function launch(entry, argv) {
  // seamlab stops when whoever started it is gone (e.g. `npx` killed with SIGKILL): SIGTERM first, so that a report
  // stops its kernels and publishes nothing, then SIGKILL if it is still running 3 s later. SEAMLAB_DETACHED=1 lets
  // it outlive its parent on purpose (`nohup`, or a shell that exits after starting it in the background).
  if (process.env.SEAMLAB_DETACHED !== "1") {
    watchParent({
      signal: "SIGTERM",
      graceMs: 3000,
      message:
        "seamlab: stopping: the process that started it is gone (set SEAMLAB_DETACHED=1 to keep seamlab running " +
        "without it).\n",
    });
  }
  const built = await ensureBuilt(fileURLToPath(new URL("..", import.meta.url)));
  let entries;
  if (built !== undefined) {
    // The first run after an install or an edit to src/ builds it; say so where a person is watching.
    if (built.builtMs !== undefined && process.stderr.isTTY) {
      process.stderr.write(`seamlab: built src/ once for these sources (${(built.builtMs / 1000).toFixed(1)} s)\n`);
    }
    entries = await import(pathToFileURL(built.cli).href);
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    entries = await import("../src/cli/main.ts");
  }
  process.exitCode = await entries[entry](argv);
}

// `npm run kernel:install`: registers the "TypeScript (seamlab)" kernel in the user's Jupyter data dir
// (`jupyter --data-dir`, else $JUPYTER_DATA_DIR, else ~/.local/share/jupyter), started at this checkout's root,
// and compiles src/ once for its kernels (report/kernel-sources), so a notebook's imports do not compile it again.
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeKernelSpec } from "../src/report/kernelspec";
import { prepareKernelSources } from "../src/report/kernel-sources";

function jupyterDataDir(): string {
  try {
    const dir = execFileSync("jupyter", ["--data-dir"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (dir) return dir;
  } catch {
    // jupyter not installed: fall through to the documented default
  }
  return process.env.JUPYTER_DATA_DIR || join(homedir(), ".local", "share", "jupyter");
}

const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const path = writeKernelSpec(jupyterDataDir(), root);
process.stdout.write(`kernelspec "TypeScript (seamlab)" written to ${path}\n`);
const sources = prepareKernelSources(root);
process.stdout.write(
  sources.dir === undefined
    ? `src/ does not compile under tslab (${sources.diagnostics.length} errors, first: ${sources.diagnostics[0]}); ` +
        "kernels compile it themselves and show the errors\n"
    : `src/ compiled for the kernels in ${(sources.ms / 1000).toFixed(1)} s` +
        `${sources.reused ? " (already there)" : ""}: ${sources.dir}\n` +
        "After an edit to src/, kernels compile it themselves until `npm run kernel:install` or a report runs again.\n",
);
process.stdout.write("Open notebooks/*.ipynb in JupyterLab or VS Code and pick that kernel.\n");

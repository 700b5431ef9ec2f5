// `npm run kernel:install`: registers the "TypeScript (seamlab)" kernel in the user's Jupyter data dir
// (`jupyter --data-dir`, else $JUPYTER_DATA_DIR, else ~/.local/share/jupyter), started at this checkout's root. Its
// kernels compile src/ themselves, as tslab does, so an edit to src/ shows in the next run of a notebook's imports.
import { execFileSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeKernelSpec } from "../src/report/kernelspec";

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
process.stdout.write("Open notebooks/*.ipynb in JupyterLab or VS Code and pick that kernel.\n");

// The Jupyter kernelspec that starts tslab at the project root, so notebooks' `./src/...` imports resolve in
// JupyterLab, VS Code and `jupyter nbconvert --execute`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../experiment/export";

export const KERNEL_NAME = "seamlab-tslab";

/** Writes `<jupyterDataDir>/kernels/seamlab-tslab/kernel.json`; returns its path. */
export function writeKernelSpec(jupyterDataDir: string, root: string): string {
  const spec = {
    argv: [
      "bash",
      "-c",
      `cd ${shellQuote(root)} && exec node --import ./src/report/kernel-watchdog.mjs ` +
        `--import ./src/report/kernel-quiet-watch.mjs ` +
        `node_modules/tslab/bin/tslab kernel --config-path "$0"`,
      "{connection_file}",
    ],
    display_name: "TypeScript (seamlab)",
    language: "typescript",
    interrupt_mode: "signal",
    metadata: { seamlab_root: root },
  };
  const dir = join(jupyterDataDir, "kernels", KERNEL_NAME);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "kernel.json");
  writeFileSync(path, JSON.stringify(spec, null, 1) + "\n");
  return path;
}

// Preloaded into a tslab kernel that Jupyter starts from seamlab's kernelspec (JupyterLab, VS Code, nbconvert):
// when a compiled copy of src/ exists for the sources as they are now (kernel-sources-key.mjs; `seamlab report` and
// `npm run kernel:install` build it), the kernel loads it through kernel-compiled-src.mjs, as the report's kernels
// do, instead of type-checking and transpiling every project file its import cells reach (5-9 s of CPU a notebook).
// A copy of other sources is never used: after an edit to src/, the next kernel compiles src/ itself, as tslab
// always did, until a report or `npm run kernel:install` builds the new copy. Nothing here can stop the kernel from
// starting: whatever goes wrong, it compiles src/ itself.
import { currentKernelSources } from "./kernel-sources-key.mjs";

if (!process.env.SEAMLAB_KERNEL_SRC) {
  let dir;
  try {
    dir = currentKernelSources(process.cwd());
  } catch {
    dir = undefined;
  }
  if (dir !== undefined) {
    process.env.SEAMLAB_KERNEL_SRC = dir;
    await import("./kernel-compiled-src.mjs");
  }
}

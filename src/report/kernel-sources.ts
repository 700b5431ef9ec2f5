// What the report logs while the kernels' compiled copy of src/ (build/kernels/copy.ts) is made for a run.
import { startKernelSources, type PendingKernelSources } from "../build/kernels/copy";

/** The kernels' copy of src/, built while they start, or undefined; `ready` logs a failure and never rejects. */
export function kernelSourcesForRun(root: string, log: (line: string) => void): PendingKernelSources | undefined {
  if (process.env.SEAMLAB_REPORT_SOURCES === "tslab") return undefined;
  const failed = (error: Error) =>
    log(`could not compile src/ for the kernels (${error.message}); the kernels compile it themselves`);
  let pending: PendingKernelSources;
  try {
    pending = startKernelSources(root);
  } catch (error) {
    failed(error as Error);
    return undefined;
  }
  const ready = pending.ready.then(
    (sources) => {
      const seconds = (sources.ms / 1000).toFixed(1);
      if (sources.dir) log(`${sources.reused ? "reused" : "compiled"} src/ for the kernels in ${seconds} s`);
      else {
        log(
          `src/ has ${sources.diagnostics.length} error(s) under tslab's TypeScript (first: ${sources.diagnostics[0]}); ` +
            `the kernels compile it themselves and report them in the notebooks`,
        );
      }
      return sources;
    },
    (error: Error) => {
      failed(error);
      return { reused: false, diagnostics: [], ms: 0 };
    },
  );
  return { ...pending, ready };
}

// Preloaded like kernel-watchdog.mjs. tslab drives TypeScript's watch compiler with one fake timer and throws
// "Unexpected pending rebuildTimer" for the kernel's life when a directory watcher fires between two cells (a file
// new in src/ or node_modules/ broke one report in three on a busy machine). Imported files are still watched.
// Only tslab's thread: a kernel's worker threads (library splitters, sweeps) inherit the preload, and loading
// TypeScript there cost each about 0.25 s of CPU for nothing.
import { createRequire } from "node:module";
import { isMainThread } from "node:worker_threads";

if (isMainThread) {
  const tslabRequire = createRequire(createRequire(import.meta.url).resolve("tslab/dist/converter.js"));
  const ts = tslabRequire("@tslab/typescript-for-tslab");
  ts.sys.watchDirectory = () => ({ close() {} });
  // An `npm install` beside a running report fired the packages' file watchers the same way.
  const watchFile = ts.sys.watchFile;
  ts.sys.watchFile = (path, ...rest) =>
    /[\\/]node_modules[\\/]/.test(path) ? { close() {} } : watchFile(path, ...rest);
}

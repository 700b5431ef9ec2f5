// Preloaded like kernel-watchdog.mjs. tslab drives TypeScript's watch compiler with one fake timer and throws
// "Unexpected pending rebuildTimer" for the kernel's life when a directory watcher fires between two cells (a file
// new in src/ or node_modules/ broke one report in three on a busy machine). Imported files are still watched.
import { createRequire } from "node:module";

const tslabRequire = createRequire(createRequire(import.meta.url).resolve("tslab/dist/converter.js"));
const ts = tslabRequire("@tslab/typescript-for-tslab");
ts.sys.watchDirectory = () => ({ close() {} });
// An `npm install` beside a running report fired the packages' file watchers the same way.
const watchFile = ts.sys.watchFile;
ts.sys.watchFile = (path, ...rest) => (/[\\/]node_modules[\\/]/.test(path) ? { close() {} } : watchFile(path, ...rest));

// Preloaded into every tslab kernel seamlab starts (node --import). tslab drives TypeScript's watch compiler
// with a single fake timer and throws "Unexpected pending rebuildTimer" -- for the rest of the kernel's life --
// when a directory watcher fires between two cells. TypeScript watches folders such as src/ and node_modules/ for
// files that could satisfy a failed module lookup, so a .json or .ts file appearing there (an editor's or another
// tool's output) broke the next cell of every running notebook, at random (about one report run in three on a
// busy machine). Notebook runs need no directory watching: files the cells import are still watched one by one,
// so an edited src/ file is still picked up. The kernelspec (`npm run kernel:install`) preloads it too.
import { createRequire } from "node:module";

const tslabRequire = createRequire(createRequire(import.meta.url).resolve("tslab/dist/converter.js"));
// tslab compiles with its own TypeScript build, not the project's.
const ts = tslabRequire("@tslab/typescript-for-tslab");
ts.sys.watchDirectory = () => ({ close() {} });
// Installed packages do not change during a run either; an `npm install` beside a running report fired their
// file watchers the same way.
const watchFile = ts.sys.watchFile;
ts.sys.watchFile = (path, ...rest) => (/[\\/]node_modules[\\/]/.test(path) ? { close() {} } : watchFile(path, ...rest));

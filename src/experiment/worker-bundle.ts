import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../core/project";
import { sha256 } from "./cache";
import { codeFingerprint } from "./fingerprint";

/**
 * The worker threads' code as one plain JavaScript file, built once per version of the code.
 *
 * Started from `worker-entry.mjs`, every worker thread registers tsx, which starts its own module-hooks thread and
 * compiles and resolves every TypeScript module it imports through it: about 0.4 s of CPU per
 * worker thread before its first task (0.08 s from one bundled file), paid again by every thread of every sweep.
 * So the main thread bundles `worker.ts` and what it imports with esbuild (the compiler tsx itself runs) into one ES
 * module, keyed by the hash of the code behind grid rows (`codeFingerprint`, which covers every file the bundle can
 * hold), and the threads load that. Packages stay outside the bundle (`packages: "external"`): the file lives in
 * `node_modules/.cache/seamlab/`, so they resolve from the project's node_modules as before.
 */

/** Changes when the way the bundle is built changes, so an old bundle is never reused. */
const BUNDLE_FORMAT = "1";

/** Bundles older than this are removed when a new one is written (a later run of their code builds them again). */
const STALE_MS = 7 * 24 * 3600 * 1000;

// The bundle file of this process, once built or found (one per root).
const bundles = new Map<string, Promise<string | undefined>>();

/** The folder holding the bundles: node_modules/.cache/seamlab of the project. */
export function workerBundleDir(root: string = projectRoot()): string {
  return join(root, "node_modules", ".cache", "seamlab");
}

/**
 * The path of the bundled worker for the current code, building it first if needed; undefined when it cannot be built
 * (esbuild missing or failing) or SEAMLAB_WORKER_BUNDLE=0 asks for the TypeScript entry: callers then start
 * workers from `worker-entry.mjs`, as before, with the same results.
 */
export function workerBundleFile(root: string = projectRoot()): Promise<string | undefined> {
  if (process.env.SEAMLAB_WORKER_BUNDLE === "0") return Promise.resolve(undefined);
  let bundle = bundles.get(root);
  if (!bundle) {
    bundle = buildWorkerBundle(root).catch(() => undefined);
    bundles.set(root, bundle);
  }
  return bundle;
}

async function buildWorkerBundle(root: string): Promise<string> {
  const esbuild = await import("esbuild");
  const dir = workerBundleDir(root);
  const key = sha256(`${BUNDLE_FORMAT}\n${esbuild.version}\n${codeFingerprint(root)}`).slice(0, 24);
  const file = join(dir, `worker-${key}.mjs`);
  if (existsSync(file)) return file;
  const result = await esbuild.build({
    stdin: {
      contents: `export { runTask as default } from "./worker.ts";`,
      resolveDir: join(root, "src", "experiment"),
      sourcefile: "worker-bundle-entry.ts",
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    write: false,
    logLevel: "silent",
  });
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: a process starting workers meanwhile sees the whole file or none.
  const aside = `${file}.${process.pid}.tmp`;
  writeFileSync(aside, result.outputFiles[0].contents);
  renameSync(aside, file);
  removeStaleBundles(dir, file);
  return file;
}

function removeStaleBundles(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (path === keep || !/^worker-[0-9a-f]+\.mjs$/.test(name)) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/** Node options that take the next argument as their value, as tsx passes its loader to node. */
const OPTIONS_WITH_VALUE = new Set([
  "--require",
  "-r",
  "--import",
  "--loader",
  "--experimental-loader",
  "--conditions",
  "-C",
]);

/**
 * Node options a worker thread accepts in an explicit `execArgv`. V8's flags (`--max-old-space-size`) and the
 * process's own options (`--title`) make `new Worker` throw ERR_WORKER_INVALID_EXEC_ARGV there, although a thread
 * inherits them silently: with any option outside this list the threads inherit the process's options as before.
 */
const THREAD_OPTIONS = new Set([...OPTIONS_WITH_VALUE, "--no-warnings", "--no-deprecation", "--enable-source-maps"]);

/** Whether a preloaded module is tsx's (its package folder, or the package itself). */
function isTsxModule(specifier: string): boolean {
  return /(^|[/\\])tsx([/\\]|$)/.test(specifier);
}

/**
 * The node options for threads that load the bundle: the process's own (`execArgv`, which a worker thread inherits
 * by default) without the modules tsx preloads. Under `tsx` (the CLI, benchmarks, tests) every thread would otherwise
 * register tsx's TypeScript loader again, with its module-hooks thread, before loading a bundle that is plain
 * JavaScript: about 0.15 s of CPU per thread, and the splitting libraries' helper threads each thread starts inherit
 * them too. Undefined (inherit them all, as before) when tsx preloads nothing or some option is not one a thread
 * accepts explicitly (`THREAD_OPTIONS`).
 */
export function bundleExecArgv(execArgv: readonly string[] = process.execArgv): string[] | undefined {
  const kept: string[] = [];
  let dropped = false;
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i];
    const equals = option.indexOf("=");
    const name = equals > 0 ? option.slice(0, equals) : option;
    if (!THREAD_OPTIONS.has(name)) return undefined;
    if (!OPTIONS_WITH_VALUE.has(name)) {
      kept.push(option);
      continue;
    }
    const value = equals > 0 ? option.slice(equals + 1) : execArgv[i + 1];
    if (value === undefined) return undefined;
    const whole = equals > 0 ? [option] : [option, value];
    if (equals < 0) i++;
    if (name !== "--conditions" && name !== "-C" && isTsxModule(value)) dropped = true;
    else kept.push(...whole);
  }
  return dropped ? kept : undefined;
}

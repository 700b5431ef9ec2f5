// Which of the process's node options the sweep's worker threads keep when they load src/ built as JavaScript.

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
 * The node options for threads that load the built JavaScript (build/ensure-built.cjs): the process's own (`execArgv`,
 * which a worker thread inherits by default) without the modules tsx preloads. Under `tsx` (the CLI, benchmarks,
 * tests) every thread would otherwise register tsx's TypeScript loader again, with its module-hooks thread, before
 * loading a build that is plain JavaScript: about 0.15 s of CPU per thread, and the splitting libraries' helper
 * threads each thread starts inherit them too. Undefined (inherit them all, as before) when tsx preloads nothing or
 * some option is not one a thread accepts explicitly (`THREAD_OPTIONS`).
 */
export function builtThreadExecArgv(execArgv: readonly string[] = process.execArgv): string[] | undefined {
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

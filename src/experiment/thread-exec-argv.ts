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
 * Node options a worker thread accepts in an explicit `execArgv`: others (`--max-old-space-size`, `--title`) throw
 * ERR_WORKER_INVALID_EXEC_ARGV there, although a thread inherits them silently.
 */
const THREAD_OPTIONS = new Set([...OPTIONS_WITH_VALUE, "--no-warnings", "--no-deprecation", "--enable-source-maps"]);

/** Whether a preloaded module is tsx's (its package folder, or the package itself). */
function isTsxModule(specifier: string): boolean {
  return /(^|[/\\])tsx([/\\]|$)/.test(specifier);
}

/**
 * The process's node options without the modules tsx preloads, for threads that load the built JavaScript: tsx's
 * loader costs each thread about 0.15 s of CPU for nothing. Undefined (inherit them all) when tsx preloads nothing
 * or some option is not in `THREAD_OPTIONS`.
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

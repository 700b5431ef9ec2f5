/** The environment that starts seamlab with the publish fault injection of `publish-faults.mjs` preloaded. */
// A file URL: no spaces or quotes to escape inside NODE_OPTIONS.
const preload = new URL("./publish-faults.mjs", import.meta.url).href;

/**
 * `env` plus NODE_OPTIONS preloading the fault injection, and `faults` (SEAMLAB_REPORT_STEP_DELAY_MS,
 * SEAMLAB_REPORT_FAULT) for it to read. Processes seamlab starts inherit the preload; only a publish reaches it.
 */
export function publishFaultEnv(
  faults: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const options = [env.NODE_OPTIONS, `--import=${preload}`].filter(Boolean).join(" ");
  return { ...env, ...faults, NODE_OPTIONS: options };
}

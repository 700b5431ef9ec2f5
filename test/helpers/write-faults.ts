/** The environment that starts seamlab with the write fault injection of `write-faults.mjs` preloaded. */
// A file URL: no spaces or quotes to escape inside NODE_OPTIONS.
const preload = new URL("./write-faults.mjs", import.meta.url).href;

/** `env` plus NODE_OPTIONS preloading the injection, which makes `syscall` on a path containing `text` fail with `code`. */
export function writeFaultEnv(
  code: string,
  syscall: "open" | "write",
  text: string,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const options = [env.NODE_OPTIONS, `--import=${preload}`].filter(Boolean).join(" ");
  return { ...env, SEAMLAB_WRITE_FAULT: `${code}:${syscall}:${text}`, NODE_OPTIONS: options };
}

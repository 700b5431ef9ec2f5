import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * A `require` that resolves from the calling file, in both ESM (tsx) and CommonJS (tslab) loading. tslab compiles
 * project files as CommonJS, where `import.meta` does not compile, and ESM has neither `require` nor `__filename`;
 * so the caller's path is read from the stack frame naming `fileStem` (its file name without extension). Without
 * one, the `require` resolves from `fallbackDir`.
 */
export function requireFrom(fileStem: string, fallbackDir: string = process.cwd() + "/"): NodeRequire {
  const frame = new RegExp(`((?:file://)?/[^\\s():]*/${fileStem}\\.[cm]?[jt]s)`).exec(new Error().stack ?? "");
  if (frame) return createRequire(frame[1].startsWith("file:") ? fileURLToPath(frame[1]) : frame[1]);
  return createRequire(fallbackDir);
}

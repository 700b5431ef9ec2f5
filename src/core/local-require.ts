import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { projectRoot } from "./project";

/**
 * A `require` that resolves from the calling file, in both ESM (tsx) and CommonJS (tslab) loading. tslab compiles
 * project files as CommonJS, where `import.meta` does not compile, and ESM has neither `require` nor `__filename`;
 * so the caller's path is read from the stack frame naming `fileStem` (its file name without extension). Without
 * one (in the bundled worker, experiment/worker-bundle, every frame names the bundle), the `require` resolves from
 * `fallbackDir`, by default the project root.
 */
export function requireFrom(fileStem: string, fallbackDir?: string): NodeRequire {
  const frame = new RegExp(`((?:file://)?/[^\\s():]*/${fileStem}\\.[cm]?[jt]s)`).exec(new Error().stack ?? "");
  if (frame) return createRequire(frame[1].startsWith("file:") ? fileURLToPath(frame[1]) : frame[1]);
  return createRequire(fallbackDir ?? rootOrCwd());
}

function rootOrCwd(): string {
  try {
    return projectRoot() + "/";
  } catch {
    return process.cwd() + "/";
  }
}

/**
 * Loads an engine module at run time through tsx instead of through tslab's compiler.
 *
 * tslab 1.0.22 type-checks every project file a cell reaches, non-strict and with TypeScript 5.0, and refuses to
 * run the cell on any diagnostic — also on diagnostics in files the cell only reaches through another module's
 * dynamic `import()`. An engine module that is fine under the project's strict `tsc` can still fail there (today
 * `src/embed/select.ts`, reached from the sweep runner's lazily loaded dense reranker). Study helpers that need
 * such engines load them here: tsx compiles without type-checking, and Node's own loader handles the rest.
 * The price is that these helpers see the engine's results as loosely typed.
 */
import { join } from "node:path";
import { createRequire } from "node:module";
import { SeamlabError } from "../core/errors";
import { findProjectRoot } from "../corpus/defaults";

let registered = false;

/** `loadEngine("experiment/sweep")` = the module `src/experiment/sweep.ts` of the project the process runs in. */
export function loadEngine(modulePath: string): any {
  const root = findProjectRoot(process.cwd());
  if (!root) throw new SeamlabError(`cannot find the seamlab project above ${process.cwd()}: start the kernel at the project root.`);
  const file = join(root, "src", `${modulePath}.ts`);
  // Required by name at run time: tslab resolves like node10 and cannot see tsx's `exports` map. Registered
  // globally (once), not namespaced: the LangChain bridge re-resolves its package path, which a namespace breaks.
  const requireHere = createRequire(join(root, "package.json"));
  if (!registered) {
    (requireHere("tsx/cjs/api") as { register: () => unknown }).register();
    registered = true;
  }
  return requireHere(file);
}

// Every retrieval notebook at its least work under `--budget` (its level's parameters injected, its sections left
// out) runs through the real tslab kernel on a small corpus (≈3 s kernel start each, src/ compiled once): the parameters a level injects
// type-check in the notebook's cells, and a level reading a document sample says on the page what it read.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { applyBudgetPlan } from "../../src/report/budget-notebook";
import { readNotebook, type Notebook } from "../../src/report/nbformat";
import { runNotebook } from "../../src/report/run";
import { startKernelSources, type PendingKernelSources } from "../../src/build/kernels/copy";
import { fastifyGuides, projectRoot } from "../helpers/corpora";
import { declared } from "../helpers/declared-work";

const files = Object.fromEntries(
  readdirSync(join(projectRoot, "notebooks")).map((name) => [name.slice(0, 2), join(projectRoot, "notebooks", name)]),
);
// src/ compiled once for the five kernels, as the report does (each kernel compiling it took 7-11 s)
let sources: PendingKernelSources | undefined;
const text = (nb: Notebook) =>
  JSON.stringify(nb.cells.map((cell) => [cell.source, cell.cell_type === "code" ? cell.outputs : []]));

for (const prefix of Object.keys(declared).filter((p) => declared[p].levels.length > 0)) {
  const levels = declared[prefix].levels;
  const least = levels[levels.length - 1];
  test(`notebook ${prefix} runs at its least work (${least.ran})`, async () => {
    // a sample level's characters made smaller than the corpus (about 250,000 characters), so that it samples
    const parameters = {
      ...least.parameters,
      ...(least.documentChars !== undefined ? { documentChars: 60_000 } : {}),
    };
    const notebook = applyBudgetPlan(readNotebook(files[prefix]), { parameters, skip: least.skip, note: least.ran });
    sources ??= startKernelSources(projectRoot);
    const result = await runNotebook(notebook, {
      root: projectRoot,
      parameters: { corpus: fastifyGuides, proseCorpus: "", markdownCorpus: "", querySample: 40, ...parameters },
      cellTimeoutMs: 240_000,
      env: { SEAMLAB_WORKERS: "1" },
      compiledSources: sources,
    });
    assert.equal(result.ok, true, JSON.stringify(result.failed));
    const shown = text(result.notebook);
    for (const section of least.skip) assert.match(shown, /Left out under `--budget`/, section);
    if (least.documentChars !== undefined)
      assert.match(shown, /a seeded stratified sample of \d+ documents, [\d,]+ characters, read: the sample/);
  });
}

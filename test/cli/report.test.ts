import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { corpusParameters } from "../../src/cli/report";
import { readNotebook } from "../../src/report/nbformat";
import { projectRoot } from "../../src/core/project";

test("--corpus empties every other corpus a notebook's parameters name, so a report measures only that corpus", () => {
  const injected = corpusParameters("/data/mine");
  assert.equal(injected.corpus, "/data/mine");
  const notebooksDir = resolve(projectRoot(), "notebooks");
  const declared = new Set<string>();
  for (const name of readdirSync(notebooksDir).filter((n) => n.endsWith(".ipynb"))) {
    const nb = readNotebook(join(notebooksDir, name));
    const parameters = nb.cells.find((cell) => (cell.metadata?.tags as string[] | undefined)?.includes("parameters"));
    assert.ok(parameters, `${name} has a cell tagged parameters`);
    const source = Array.isArray(parameters.source) ? parameters.source.join("") : parameters.source;
    for (const match of source.matchAll(/^const (\w+Corpus)\b/gm)) declared.add(match[1]);
  }
  assert.ok(declared.has("proseCorpus") && declared.has("markdownCorpus"), [...declared].join(", "));
  for (const parameter of declared) assert.equal(injected[parameter], "", `${parameter} is not emptied by --corpus`);
});

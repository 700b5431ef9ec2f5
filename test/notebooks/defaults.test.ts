// The report and `seamlab sweep` must reach the same verdict on the same corpus: notebook 03's parameters cell holds
// the CLI's defaults (splitter, size, overlaps, k, margin, heading levels, query sample), and the report's
// --context-budget check uses 03's sizes. A changed default on one side fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { DEFAULT_SWEEP_OVERLAPS } from "../../src/experiment/overlap-share";
import { DEFAULT_HEADING_LEVELS } from "../../src/retrieval/header-queries";
import { NOTEBOOK_SIZES } from "../../src/cli/report-settings";
import { seamlab } from "../cli/spawn-cli";

/** The values notebook 03's parameters cell declares, evaluated as the kernel would (TypeScript types stripped). */
function parametersOf(name: string): Record<string, unknown> {
  const notebook = JSON.parse(readFileSync(join("notebooks", name), "utf8"));
  const cell = notebook.cells.find((c: { metadata: { tags?: string[] } }) => c.metadata.tags?.includes("parameters"));
  const js = ts.transpile(cell.source.join("").replace(/^const /gm, "var "));
  const scope: Record<string, unknown> = {};
  runInNewContext(js, scope);
  // plain values of this realm (arrays made in the context have its Array prototype)
  return JSON.parse(JSON.stringify(scope)) as Record<string, unknown>;
}

test("notebook 03's parameters are seamlab sweep's defaults, so the report and the CLI decide alike", () => {
  const p = parametersOf("03-overlap-sweep.ipynb");
  assert.equal(p.splitter, "langchain");
  assert.equal(p.size, 1000);
  assert.deepEqual(p.overlaps, [...DEFAULT_SWEEP_OVERLAPS]);
  assert.equal(p.k, 5);
  assert.equal(p.margin, 0.01);
  assert.deepEqual(p.headingLevels, [...DEFAULT_HEADING_LEVELS]);
  assert.equal(p.querySample, "auto");
  assert.deepEqual(p.sizes, NOTEBOOK_SIZES);
  // and the CLI says the same defaults in its help
  const help = seamlab(["sweep", "--help"]).stdout;
  assert.match(help, new RegExp(`default ${DEFAULT_SWEEP_OVERLAPS.join(",")}\\)`));
  assert.match(help, /\(default langchain\); --size N \(default 1000\)/);
  assert.match(help, /--margin POINTS .*\(default 1\)/s);
});

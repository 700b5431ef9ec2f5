// Structural damage on the real OpenTelemetry docs under SEAMLAB_DATA_DIR (`npm run test:corpora`): the structure
// splitter leaves no cut inside a code block or a table shorter than its hard limit; LangChain's markdown splitter
// cuts many.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { measureStructureDamage } from "../../src/measure/structure-damage";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { splitCorpus } from "../../src/splitters/registry";
import { requireDataDir } from "../helpers/data-dir";

after(() => stopLibraryBridge());

test("structure cuts no code block or table under the hard limit on opentelemetry-docs; langchain-markdown does", () => {
  const docs = loadCorpus(join(requireDataDir(), "opentelemetry-docs", "content")).docs;
  const config = { size: 1000, overlap: 200 };
  const structure = measureStructureDamage(docs, splitCorpus(docs, { splitter: "structure", ...config }), {
    limit: 2000,
  });
  for (const kind of ["code-block", "table"] as const) {
    assert.equal(structure.kinds[kind].damaged - structure.kinds[kind].inOversize, 0, kind);
  }
  const markdown = measureStructureDamage(docs, splitCorpus(docs, { splitter: "langchain-markdown", ...config }), {
    limit: 2000,
  });
  assert.ok(markdown.kinds["code-block"].damaged - markdown.kinds["code-block"].inOversize > 100);
  assert.ok(structure.anyDamaged / structure.seams < markdown.anyDamaged / markdown.seams);
});

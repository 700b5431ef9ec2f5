// On the real markdown corpora (read from $SEAMLAB_DATA_DIR): the structure splitter leaves no cut inside a code
// block or a table shorter than its hard limit, while the LangChain markdown splitter does cut them.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadCorpus } from "../../src/corpus/load";
import { measureStructureDamage } from "../../src/measure/structure-damage";
import { stopLangchainBridge } from "../../src/splitters/langchain-bridge";
import { splitCorpus } from "../../src/splitters/registry";
import { dataDir } from "../helpers/data-dir";

after(() => stopLangchainBridge());

const root = dataDir();
const corpusDir = root ? join(root, "opentelemetry-docs", "content") : undefined;
if (!corpusDir || !existsSync(corpusDir)) {
  console.log(
    "# skipping structural damage on opentelemetry-docs: SEAMLAB_DATA_DIR is not set (or has no opentelemetry-docs)",
  );
}

test(
  "structure cuts no code block or table under the hard limit on opentelemetry-docs; langchain-markdown does",
  {
    skip: !corpusDir || !existsSync(corpusDir),
  },
  () => {
    const docs = loadCorpus(corpusDir!).docs;
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
  },
);

// `recursive` follows LangChain Python where LangChain JS differs. The fixture holds the chunks the real Python
// package returned (langchain-text-splitters 1.1.2, RecursiveCharacterTextSplitter at 200/40 with seamlab's
// cl100k_base token count as its length function) for one fastify-docs file that has runs of three newlines: there
// Python keeps "\n\n\n" in one piece and JS splits it at every "\n\n", so from chunk 17 on the two differ.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { splitDoc } from "../../src/splitters/registry";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { countTokens } from "../../src/text/tokens";
import { pinnedCorpus, projectRoot } from "../helpers/corpora";

after(() => stopLibraryBridge());

const fixture = JSON.parse(
  readFileSync(
    join(projectRoot, "test", "fixtures", "splitters", "langchain-python-plugins-guide-200-40-tokens.json"),
    "utf8",
  ),
) as { chunks: string[] };

test("recursive in token units returns LangChain Python's chunks on Plugins-Guide.md, where LangChain JS differs", () => {
  const doc = pinnedCorpus("fastify-docs").find((d) => d.id.endsWith("Guides/Plugins-Guide.md"));
  assert.ok(doc, "fastify-docs has Guides/Plugins-Guide.md");
  const config = { size: 200, overlap: 40, unit: "tokens" as const };
  const recursive = splitDoc(doc, { ...config, splitter: "recursive" }).map((c) => c.text);
  assert.deepEqual(recursive, fixture.chunks);

  const js = splitDoc(doc, { ...config, splitter: "langchain" }).map((c) => c.text);
  const first = js.findIndex((text, i) => text !== recursive[i]);
  assert.equal(first, 17, "the documented difference starts at chunk 17");
  assert.deepEqual([countTokens(recursive[17]), countTokens(js[17])], [193, 140]);
  assert.ok(doc.text.includes("\n\n\n"), "the file has the runs of three newlines the two libraries treat apart");
});

// Every splitter on real files (the pinned fastify docs and Moby-Dick): spans are valid, ordered, and hold what each splitter says its text is.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { librarySplitter } from "../../src/splitters/libraries";
import { splitCorpus, splitterNames } from "../../src/splitters/registry";
import { pinnedCorpus, sampleDocs } from "../helpers/corpora";

after(() => stopLibraryBridge());

const docs = [...sampleDocs(pinnedCorpus("fastify-docs"), 3), ...sampleDocs(pinnedCorpus("moby-dick"), 12)];
const tokenDocs = docs.slice(0, 12);

// For every splitter built on slices, text === source.slice(start, end) (window, window-words, tokens, langchain,
// recursive and sentences with keepSeparator, tail with its prefix). Only recursive with keepSeparator false
// re-joins pieces; that is covered in recursive.test.ts. Other libraries' splitters (some rewrite text) are
// covered in libraries.test.ts.
for (const splitter of splitterNames.filter((name) => name !== "semantic" && !librarySplitter(name))) {
  for (const unit of ["chars", "tokens"] as const) {
    if (splitter === "window-words" && unit === "tokens") continue;
    if (splitter === "tokens" && unit === "chars") continue; // refused: the tokens splitter counts tokens only
    test(`${splitter} (${unit}): text equals source.slice(start, end), spans in order, nothing lost`, () => {
      const input = unit === "tokens" ? tokenDocs : docs;
      const config =
        unit === "tokens" ? { splitter, size: 256, overlap: 32, unit } : { splitter, size: 800, overlap: 150, unit };
      const chunks = splitCorpus(input, config);
      const byDoc = new Map(input.map((d) => [d.id, d]));
      let prev: { doc: string; start: number; end: number } | null = null;
      let covered = 0;
      for (const c of chunks) {
        const doc = byDoc.get(c.doc)!;
        assert.ok(0 <= c.start && c.start < c.end && c.end <= doc.text.length, `${c.doc} [${c.start}, ${c.end})`);
        if (splitter === "structure" && c.text !== doc.text.slice(c.start, c.end)) {
          // structure: a table piece past the hard limit carries the table's header row in front of its slice
          assert.ok(c.text.endsWith("\n" + doc.text.slice(c.start, c.end)), `${c.doc} [${c.start}, ${c.end})`);
          assert.match(c.text, /^\s*\|/, `${c.doc} [${c.start}, ${c.end}): a prefix that is not a table header`);
        } else {
          assert.equal(c.text, doc.text.slice(c.start, c.end), `${c.doc} [${c.start}, ${c.end})`);
        }
        if (prev && prev.doc === c.doc) {
          assert.ok(c.start >= prev.start && c.end >= prev.end, `${c.doc}: chunks out of order`);
          // Whatever a seam skips is whitespace: no splitter here drops text.
          if (c.start > covered) assert.match(doc.text.slice(covered, c.start), /^\s*$/);
        } else {
          if (prev) assert.match(byDoc.get(prev.doc)!.text.slice(covered), /^\s*$/);
          assert.match(doc.text.slice(0, c.start), /^\s*$/);
          covered = 0;
        }
        covered = Math.max(covered, c.end);
        prev = c;
      }
    });
  }
}

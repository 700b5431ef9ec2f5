import { test } from "node:test";
import assert from "node:assert/strict";
import { seamViewerPayload } from "../../src/study/viewer";
import { seamViewerHtml, pageStarts } from "../../src/notebook/seam-viewer";
import { SeamlabError } from "../../src/core/errors";

// Recursive at 1000/200 keeps each 599-char paragraph alone, so three of them give two seams sharing nothing;
// a document under the size is one chunk and has no seam.
const bare = (id: string, letter: string) => ({ id, text: [1, 2, 3].map(() => letter.repeat(599)).join("\n\n") });
const config = { splitter: "recursive", size: 1000, overlap: 200 };
const shortDoc = (id: string) => ({ id, text: `${id} is one short paragraph.` });

test("the payload lists every document with its seams and carries the ones with bare seams first, whole", () => {
  const docs = [shortDoc("s1"), bare("b1", "A"), shortDoc("s2"), bare("b2", "B")];
  const payload = seamViewerPayload(docs, [config], { cache: null });
  assert.deepEqual(
    payload.texts!.map((t) => t.doc),
    ["b1", "b2", "s1", "s2"],
    "auto: the first bare document, the other bare one, then the rest",
  );
  for (const t of payload.texts!) {
    assert.equal(t.text, docs.find((d) => d.id === t.doc)!.text, `${t.doc} carried whole`);
    assert.equal(t.offset, 0);
  }
  assert.deepEqual(payload.texts![0].splitters[0].chunks, [
    { start: 0, end: 599 },
    { start: 601, end: 1200 },
    { start: 1202, end: 1801 },
  ]);
  const b1 = payload.documents!.find((d) => d.doc === "b1")!;
  assert.deepEqual([b1.length, b1.seams, b1.zeroSeams, b1.carried], [1801, [2], [2], 1801]);
  const s1 = payload.documents!.find((d) => d.doc === "s1")!;
  assert.deepEqual([s1.seams, s1.zeroSeams], [[0], [0]]);
  assert.equal(payload.corpusDocs, 4);
  assert.deepEqual(payload.splitterNames, ["recursive 1000/200"]);
});

test("texts stop at the character budget: a document that does not fit is listed but not carried", () => {
  const docs = [bare("b1", "A"), bare("b2", "B"), shortDoc("s1")];
  const payload = seamViewerPayload(docs, [config], { cache: null, textBudget: 2000 });
  // b1 (1,801) fits; b2 (1,801) does not fit in the 199 left; s1 does.
  assert.deepEqual(
    payload.texts!.map((t) => t.doc),
    ["b1", "s1"],
  );
  assert.deepEqual(
    payload.documents!.map((d) => [d.doc, d.carried]),
    [
      ["b1", 1801],
      ["s1", docs[2].text.length],
      ["b2", 0],
    ],
  );
  const total = payload.texts!.reduce((sum, t) => sum + t.text.length, 0);
  assert.ok(total <= 2000);
});

test("the document asked for comes first, cut at the budget when it alone is longer, its chunks with it", () => {
  const docs = [bare("b1", "A"), shortDoc("s1")];
  const payload = seamViewerPayload(docs, [config], { cache: null, first: "s1", textBudget: 1000 });
  assert.deepEqual(
    payload.texts!.map((t) => t.doc),
    ["s1"],
    "b1 (1,801) does not fit in what s1 leaves",
  );
  const cut = seamViewerPayload(docs, [config], { cache: null, first: 0, textBudget: 700 });
  assert.equal(cut.texts![0].text.length, 700);
  assert.deepEqual(cut.texts![0].splitters[0].chunks, [
    { start: 0, end: 599 },
    { start: 601, end: 1200 },
  ]);
  assert.equal(cut.documents![0].carried, 700);
  assert.match(seamViewerHtml(cut), /characters 0–700 of 1,801 \(cut at the budget\)/);
});

test("documents past the listing budget are listed unsplit, unless asked for", () => {
  const docs = [bare("b1", "A"), bare("b2", "B"), bare("b3", "C")];
  const payload = seamViewerPayload(docs, [config], { cache: null, listBudget: 2000, first: "b3" });
  const byId = new Map(payload.documents!.map((d) => [d.doc, d]));
  assert.deepEqual(byId.get("b1")!.seams, [2]);
  assert.deepEqual(byId.get("b2")!.seams, [null]);
  assert.deepEqual(byId.get("b3")!.seams, [2], "asked for, so split");
  assert.equal(payload.texts![0].doc, "b3");
  assert.match(seamViewerHtml(payload), /not split/);
});

test("bad viewer settings are refused with the setting's name", () => {
  const docs = [shortDoc("s1")];
  assert.throws(() => seamViewerPayload(docs, []), SeamlabError);
  assert.throws(() => seamViewerPayload([], [config], { cache: null }), /corpus has none/);
  assert.throws(() => seamViewerPayload(docs, [config], { cache: null, textBudget: 0 }), /textBudget/);
  assert.throws(() => seamViewerPayload(docs, [config], { cache: null, first: "nope" }), /viewerDoc "nope"/);
});

test("the whole text is drawn, paged at line breaks, every page in the page's HTML", () => {
  const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
  const doc = { id: "long", text: lines.join("\n") };
  const payload = seamViewerPayload([doc], [config], { cache: null, pageChars: 5000 });
  const starts = pageStarts(doc.text, 5000);
  assert.ok(starts.length >= 4);
  for (const start of starts.slice(1)) assert.equal(doc.text[start - 1], "\n", "a page starts after a line break");
  const html = seamViewerHtml(payload);
  assert.equal(html.split('<details class="sv-page"').length - 1, starts.length);
  assert.equal(html.split('<details class="sv-page" open>').length - 1, 1, "only the first page is open");
  const shown = [...html.matchAll(/<span class="[^"]*">([^<]*)<\/span>/g)]
    .filter((m) => !m[0].includes("sv-legend"))
    .map((m) => m[1])
    .join("");
  assert.ok(shown.includes(lines[0]) && shown.includes(lines[399]), "the first and the last line are drawn");
});

test("the list links each carried document to its own anchor, unique per viewer", () => {
  const payload = seamViewerPayload([bare("b1", "A"), shortDoc("s1")], [config], { cache: null });
  const html = seamViewerHtml(payload);
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(ids.length, 2);
  for (const id of ids) assert.ok(html.includes(`<a href="#${id}">`), id);
  const other = seamViewerHtml(seamViewerPayload([bare("b9", "Z")], [config], { cache: null }));
  assert.ok(!ids.some((id) => other.includes(`id="${id}"`)), "another viewer's anchors differ");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { SEAMS_MIME, seamViewerHtml, seamViewerText, type SeamViewerPayload } from "../../src/notebook/seam-viewer";
import { seamViewerBundle } from "../../src/notebook/bundles";
import { renderNotebook } from "../../src/report/render";
import { pickDoc, seamViewerPayload } from "../../src/study/viewer";
import { SeamlabError } from "../../src/core/errors";

const ALLOWED_TAGS = ["figure", "style", "figcaption", "div", "span", "h4", "small", "details", "summary"];
const ALLOWED_ATTRIBUTES = ["class", "title", "aria-label", "id", "open"];
const EVIL = `</style><script>alert(1)</script><img src=x onerror=alert(2)> & "quotes" 'single'`;

/** The classes of the text pieces, in order, with their text (tags stripped, entities kept). */
function pieces(html: string): [string, string][] {
  return [...html.matchAll(/<span class="([^"]*)"[^>]*>([^<]*)<\/span>/g)]
    .filter((m) => !m[1].startsWith("sv-"))
    .map((m) => [m[1], m[2]]);
}

test("the viewer alternates chunk backgrounds, highlights shared text and marks a seam sharing nothing", () => {
  // "aaaa bbbb cccc": A = [0, 9) + [5, 14) shares "bbbb"; B = [0, 4) + [5, 14) shares nothing (the space is a gap).
  const payload: SeamViewerPayload = {
    doc: "d",
    text: "aaaa bbbb cccc",
    offset: 0,
    splitters: [
      {
        name: "A",
        chunks: [
          { start: 0, end: 9 },
          { start: 5, end: 14 },
        ],
      },
      {
        name: "B",
        chunks: [
          { start: 0, end: 4 },
          { start: 5, end: 14 },
        ],
      },
    ],
  };
  const html = seamViewerHtml(payload);
  const [a, b] = html.split("<h4>").slice(1);
  assert.deepEqual(pieces(a), [
    ["c0 start", "aaaa "],
    ["ov start", "bbbb"],
    ["c1", " cccc"],
  ]);
  assert.match(a, /0 seams sharing nothing/);
  assert.deepEqual(
    pieces(b).filter(([cls]) => cls !== "zero"),
    [
      ["c0 start", "aaaa"],
      ["gap", " "],
      ["c1 start", "bbbb cccc"],
    ],
  );
  assert.equal(b.split('class="zero"').length - 1, 1);
  assert.match(b, /1 seams sharing nothing/);
  assert.match(seamViewerText(payload), /\[5, 14\) ‖ no shared text/);
});

test("offsets are document offsets: a stretch from the middle of a document clips chunks to what is in view", () => {
  const html = seamViewerHtml({
    doc: "d",
    text: "0123456789",
    offset: 100,
    splitters: [
      {
        name: "A",
        chunks: [
          { start: 90, end: 104 },
          { start: 104, end: 200 },
        ],
      },
    ],
  });
  assert.deepEqual(
    pieces(html.split("<h4>")[1]).filter(([cls]) => cls !== "zero"),
    [
      ["c0", "0123"],
      ["c1 start", "456789"],
    ],
  );
  assert.match(html, /d, characters 100–110/);
});

test("a malicious corpus and payload stay text: no element, attribute or style escapes the viewer", () => {
  const payload = {
    doc: EVIL,
    text: `start ${EVIL} end`,
    offset: 0,
    caption: EVIL,
    splitters: [
      {
        name: EVIL,
        chunks: [
          { start: 0, end: 20 },
          { start: "5' onmouseover='x", end: Number.NaN },
        ],
      },
      { name: "ok", chunks: [{ start: -50, end: 1e12 }] },
      { name: "fourth is dropped", chunks: [] },
      { name: "fifth", chunks: [] },
    ],
  } as unknown as SeamViewerPayload;
  const html = seamViewerHtml(payload);
  assert.ok(!html.includes("<script"), "no script element");
  assert.ok(!html.includes("<img"), "no img element");
  assert.equal(html.split("</style>").length - 1, 1, "only the viewer's own style element closes");
  // Attribute names of every tag, read the way an HTML parser does (quoted values may contain anything).
  const tag = /<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  for (const match of html.matchAll(tag)) {
    assert.ok(ALLOWED_TAGS.includes(match[1]), `<${match[1]}>`);
    for (const attribute of match[2].matchAll(/\s+([^\s=>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      assert.ok(ALLOWED_ATTRIBUTES.includes(attribute[1]), `attribute ${attribute[1]} on <${match[1]}>`);
    }
  }
  assert.ok(html.includes("&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
  assert.equal(html.split("<h4>").length - 1, 3, "at most three splitters");
  // The report rebuilds the viewer from the payload and never uses the bundle's text/html.
  const bundle = seamViewerBundle(payload);
  assert.ok(bundle.data[SEAMS_MIME]);
});

test("the report renders a seam viewer output from its payload, escaped, ignoring its text/html", async () => {
  const payload: SeamViewerPayload = {
    doc: EVIL,
    text: EVIL,
    offset: 0,
    splitters: [{ name: "langchain", chunks: [{ start: 0, end: 10 }] }],
  };
  const rendered = await renderNotebook(
    {
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: "code",
          source: "seamViewer(p)",
          metadata: {},
          execution_count: 1,
          outputs: [
            {
              output_type: "display_data",
              data: { [SEAMS_MIME]: payload, "text/html": "<script>alert(3)</script>", "text/plain": "x" },
              metadata: {},
            },
          ],
        },
      ],
    },
    "viewer",
  );
  assert.match(rendered.html, /<figure class="seam-viewer">/);
  assert.ok(!rendered.html.includes("alert(3)"));
  assert.ok(!rendered.html.includes("<script>alert(1)"));
  assert.equal(rendered.html.split("<script").length - 1, 1, "only the page's theme script");
});

test("pickDoc takes an index, an id, or auto (the first document with a bare seam, else the longest)", () => {
  const text = ["A".repeat(599), "B".repeat(599), "C".repeat(599)].join("\n\n");
  const doc = { id: "three", text };
  assert.equal(pickDoc([doc], 0), doc);
  // "auto" works on a one-document corpus (index 1 failed there), and takes the first document with a bare seam.
  const config = { splitter: "recursive", size: 1000, overlap: 200 } as const;
  const auto = (docs: { id: string; text: string }[]) =>
    seamViewerPayload(docs, [config], { cache: null }).texts![0].doc;
  assert.equal(auto([doc]), doc.id);
  const short = { id: "short", text: "One short paragraph." };
  const longer = { id: "longer", text: "word ".repeat(400) };
  assert.equal(auto([short, doc]), doc.id);
  // No bare seam anywhere (no seams at all here): the longest document.
  assert.equal(auto([short, longer]), longer.id);
  assert.throws(
    () => pickDoc([doc], "nope.md"),
    (e: unknown) => e instanceof SeamlabError && /viewerDoc "nope\.md" is not a document .*three/.test(e.message),
  );
});

test("a malicious list and texts stay text: ids, names and counts from a payload cannot make markup", () => {
  const payload = {
    splitterNames: [EVIL],
    documents: [
      { doc: EVIL, length: '1" onclick="x', seams: ["<b>"], zeroSeams: [EVIL], carried: 5 },
      { doc: "plain", length: 3, seams: [null], zeroSeams: [null], carried: 0 },
    ],
    corpusDocs: EVIL,
    pageChars: -5,
    texts: [
      { doc: EVIL, text: `${EVIL} text`, offset: "x", splitters: [{ name: EVIL, chunks: [{ start: 0, end: 9 }] }] },
    ],
  } as unknown as SeamViewerPayload;
  const html = seamViewerHtml(payload);
  assert.ok(!html.includes("<script") && !html.includes("<img") && !html.includes("<b>"));
  const tag = /<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  const listTags = ["table", "thead", "tbody", "tr", "th", "td", "a"];
  for (const match of html.matchAll(tag)) {
    assert.ok([...ALLOWED_TAGS, ...listTags].includes(match[1]), `<${match[1]}>`);
    for (const attribute of match[2].matchAll(/\s+([^\s=>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      assert.ok([...ALLOWED_ATTRIBUTES, "href"].includes(attribute[1]), `attribute ${attribute[1]} on <${match[1]}>`);
    }
  }
  for (const href of html.matchAll(/href="([^"]*)"/g)) assert.match(href[1], /^#sv-[a-z0-9]+-d\d+$/);
});

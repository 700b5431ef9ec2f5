import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readNotebook, type Notebook } from "../../src/report/nbformat";
import { renderNotebook } from "../../src/report/render";
import { renderIndex } from "../../src/report/index-page";
import { HEADLINE_MIME, TABLE_MIME, VEGA_LITE_MIME } from "../../src/notebook/mime";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "notebooks", "executed");
const EVIL = "<script>alert(1)</script> and <img src=x onerror=alert(1)>";

/** Tags in the page that could run code or fetch something: any must be ours. */
function assertInert(html: string): void {
  assert.equal(html.split("<script").length - 1, 1, "only the theme-toggle script");
  assert.ok(!html.includes("<script>alert"), "no injected script element");
  assert.ok(!/<img\b[^>]*\bsrc="?x\b/.test(html), "no injected image");
  // Attribute names of every tag, read the way an HTML parser does (quoted values may contain anything).
  const tag = /<([a-zA-Z][\w:-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  for (const match of html.matchAll(tag)) {
    for (const attribute of match[2].matchAll(/\s+([^\s=>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      assert.ok(!/^on/i.test(attribute[1]), `inline event handler ${attribute[1]} on <${match[1]}>`);
    }
  }
  for (const match of html.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)) assert.match(match[1], /^data:image\//);
  for (const match of html.matchAll(/\b(?:src|href)="(https?:[^"]*)"/g)) assert.fail(`external reference ${match[1]}`);
}

function synthetic(): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      seamlab: {
        executed_at: "2026-01-01T00:00:00.000Z",
        duration_ms: 1234,
        kernel_start_ms: 1000,
        status: "error",
        failed_cell: { index: 2, codeCellNumber: 2, message: "Error: boom" },
      },
    },
    cells: [
      {
        cell_type: "markdown",
        source: [
          `# Title ${EVIL}\n`,
          "\n",
          "## Same\n",
          "## Same\n",
          `[link](javascript:alert(1)) ![x](https://example.com/a.png)`,
        ],
        metadata: {},
      },
      {
        cell_type: "code",
        source: "const x = 1;",
        metadata: { tags: ["parameters"], seamlab: { duration_ms: 5, status: "ok" } },
        execution_count: 1,
        outputs: [
          { output_type: "stream", name: "stdout", text: [`${EVIL}\n`, "\u001b[31mred\u001b[0m\n"] },
          {
            output_type: "display_data",
            data: { "text/html": `<div onclick="x()">${EVIL}</div>`, "text/plain": `plain ${EVIL}` },
            metadata: {},
          },
          { output_type: "display_data", data: { "text/html": "<script>alert(2)</script>" }, metadata: {} },
          {
            output_type: "display_data",
            data: {
              [TABLE_MIME]: { columns: ["note"], rows: [{ note: EVIL }], digits: 3 },
              "text/html": `<table>${EVIL}</table>`,
              "text/plain": "t",
            },
            metadata: {},
          },
          {
            output_type: "display_data",
            data: {
              [VEGA_LITE_MIME]: {
                title: `Chart ${EVIL}`,
                data: {
                  values: [
                    { label: EVIL, value: 1 },
                    { label: "b", value: 2 },
                  ],
                },
                mark: { type: "bar", clip: true },
                encoding: {
                  x: { field: "label", type: "nominal" },
                  y: { field: "value", type: "quantitative" },
                  href: { value: "https://example.com/" },
                },
              },
            },
            metadata: {},
          },
          {
            output_type: "display_data",
            data: {
              [VEGA_LITE_MIME]: {
                data: { values: [{ a: 1 }] },
                mark: { type: "point", clip: true },
                encoding: { x: { field: "a", type: "quantitative" } },
              },
            },
            metadata: {},
          },
          {
            output_type: "display_data",
            data: { [HEADLINE_MIME]: { key: "recommended_overlap", value: 100, unit: "chars", label: EVIL } },
            metadata: {},
          },
          {
            output_type: "display_data",
            data: {
              "image/png":
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==\n",
            },
            metadata: {},
          },
          { output_type: "display_data", data: { "image/png": '" onerror="alert(1)' }, metadata: {} },
          {
            output_type: "display_data",
            data: { "image/svg+xml": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(3)</script></svg>' },
            metadata: {},
          },
          { output_type: "display_data", data: { "text/markdown": `md ${EVIL}` }, metadata: {} },
        ],
      },
      {
        cell_type: "code",
        source: 'throw new Error("boom")',
        metadata: { seamlab: { duration_ms: 7, status: "error" } },
        execution_count: 2,
        outputs: [{ output_type: "error", ename: "Error", evalue: `boom ${EVIL}`, traceback: [`at ${EVIL}`] }],
      },
    ],
  };
}

test("corpus text stays inert in markdown, streams, tables, chart titles and data, headlines and errors", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assertInert(page.html);
  assert.ok(page.html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"), "shown as text");
  assert.ok(!/href="javascript:/i.test(page.html), "javascript: links are not rendered as links");
  assert.ok(page.html.includes("[image not embedded: x]"));
  assert.ok(page.html.includes("red\n") && !page.html.includes("\u001b"), "ANSI colour codes stripped");
});

test("text/html that seamlab's table() did not make is replaced by its text/plain form", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.ok(page.html.includes("plain &lt;script&gt;"));
  assert.ok(page.html.includes("HTML output not shown"));
  assert.ok(!page.html.includes("onclick"));
});

test("charts become inline SVG with page-unique ids and a CSV/JSON download of their rows", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.equal(page.charts, 2);
  assert.equal(page.html.split("<svg").length - 1, 2);
  const ids = [...page.html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length, "no duplicate ids on the page");
  const csvLink = /download="evil-chart-1\.csv" href="data:text\/csv;charset=utf-8,([^"]+)"/.exec(page.html);
  assert.ok(csvLink);
  const csv = decodeURIComponent(csvLink[1].replace(/&amp;/g, "&"));
  assert.equal(csv, `label,value\r\n${EVIL},1\r\nb,2\r\n`);
  assert.ok(!/href="https:\/\/example\.com/.test(page.html), "vega href channel neutralised");
});

test("a failed cell is shown with its error, opened, and named in a banner linking to it", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.equal(page.status, "error");
  assert.equal(page.failure, "evil.ipynb, code cell [2]: Error: boom");
  assert.match(page.html, /<div class="error" role="alert"><strong>Error: boom &lt;script&gt;/);
  assert.match(page.html, /<details class="code" open><summary>Code \[2\]/);
  assert.match(page.html, /href="#cell-2">Go to the failing cell/);
});

test("headings get unique ids and make the table of contents; code is highlighted and folded", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.match(page.html, /<h2 id="same">Same<\/h2>\n<h2 id="same-1">Same<\/h2>/);
  assert.match(page.html, /<li class="l2"><a href="#same-1">Same<\/a><\/li>/);
  assert.match(
    page.html,
    /<details class="code"><summary>Code \[1\] <span class="timing">· 5 ms<\/span><span class="tag">parameters<\/span><\/summary><pre><code class="hljs language-typescript"><span class="hljs-keyword">const<\/span>/,
  );
});

test("only base64 images are embedded; an SVG output is an <img>, where its script cannot run", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.equal([...page.html.matchAll(/<img class="output-image"[^>]*src="data:image\/png;base64,/g)].length, 1);
  assert.match(page.html, /<img class="output-image" alt="SVG output" src="data:image\/svg\+xml;base64,/);
});

test("the page allows no network access: a CSP with default-src 'none' and a hashed script", async () => {
  const page = await renderNotebook(synthetic(), "evil");
  assert.match(
    page.html,
    /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:;/,
  );
  assert.match(page.html, /script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
});

test("a notebook executed by the real tslab kernel renders every output kind it produced", async () => {
  const page = await renderNotebook(readNotebook(join(fixtures, "every-output.ipynb")), "every-output");
  assertInert(page.html);
  assert.equal(page.status, "ok");
  assert.equal(page.charts, 2);
  assert.equal(page.tables, 1);
  assert.deepEqual(
    page.headlines.map((h) => h.key),
    ["recommended_overlap", "zero_overlap_share"],
  );
  assert.ok(page.html.includes('<pre class="text">done: 3 of 3</pre>'), "display update merged");
  assert.ok(!page.html.includes('<pre class="text">working...'), "the replaced display is gone");
  assert.ok(page.html.includes("a warning on stderr"));
});

test("the index shows the recommendation first, headline numbers, failures and links, all escaped", async () => {
  const ok = await renderNotebook(readNotebook(join(fixtures, "every-output.ipynb")), "every-output");
  const failed = await renderNotebook(readNotebook(join(fixtures, "failing-cell.ipynb")), "failing-cell");
  const html = renderIndex([ok, failed], {
    corpus: `/data/${EVIL}`,
    generatedAt: "2026-01-01T00:00:00Z",
    version: "0.1.0",
    commit: "abc123",
    totalMs: 8000,
  });
  assertInert(html);
  assert.match(
    html,
    /<div class="cards big"><div class="headline"><span class="label">Recommended overlap<\/span><span class="value">100 <small>chars<\/small>/,
  );
  assert.match(html, /1 notebook\(s\) stopped with an error/);
  assert.match(
    html,
    /failing-cell\.ipynb, code cell \[4\]: Error: no seams found in injected &lt;b&gt;corpus&lt;\/b&gt;/,
  );
  assert.ok(html.includes('href="every-output.html"') && html.includes('href="failing-cell.ipynb"'));
  assert.ok(html.includes("0.1.0 · commit <code>abc123</code>"));
});

test("links between notebooks point at the rendered pages, and cell attachments are embedded", async () => {
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  const nb: Notebook = {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      {
        cell_type: "markdown",
        source:
          "See [the sweep](03-overlap-sweep.ipynb#knee) and [docs](https://example.com/a.ipynb). ![plot](attachment:p.png) ![gone](attachment:missing.png)",
        metadata: {},
        attachments: { "p.png": { "image/png": png } },
      },
    ],
  };
  const page = await renderNotebook(nb, "links");
  assert.ok(page.html.includes('<a href="03-overlap-sweep.html#knee">the sweep</a>'));
  assert.ok(page.html.includes('<a href="https://example.com/a.ipynb">docs</a>'), "remote links untouched");
  assert.ok(page.html.includes(`<img src="data:image/png;base64,${png}" alt="plot">`));
  assert.ok(page.html.includes("[image not embedded: gone]"));
  assert.equal(page.status, "saved");
});

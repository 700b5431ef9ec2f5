import { test } from "node:test";
import assert from "node:assert/strict";
import { chart, headline, md, mdSection, setDisplaySink, table } from "../../src/notebook/display";
import { HEADLINE_MIME, TABLE_MIME, VEGA_LITE_MIME } from "../../src/notebook/mime";
import type { DisplayBundle } from "../../src/notebook/bundles";

function capture(run: () => void): DisplayBundle[] {
  const seen: DisplayBundle[] = [];
  setDisplaySink((bundle) => seen.push(bundle));
  try {
    run();
  } finally {
    setDisplaySink(undefined);
  }
  return seen;
}

test("table() escapes corpus text in its HTML and keeps the raw rows for the report", () => {
  const [bundle] = capture(() => table([{ text: "<img src=x onerror=alert(1)>", n: 2 }], { caption: "<b>c</b>" }));
  const html = String(bundle.data["text/html"]);
  assert.equal(
    html,
    '<table class="seamlab-table"><caption>&lt;b&gt;c&lt;/b&gt;</caption><thead><tr><th>text</th><th class="num">n</th></tr></thead>\n' +
      '<tbody>\n<tr><td>&lt;img src=x onerror=alert(1)&gt;</td><td class="num">2</td></tr>\n</tbody></table>',
  );
  assert.deepEqual(bundle.data[TABLE_MIME], {
    columns: ["text", "n"],
    rows: [{ text: "<img src=x onerror=alert(1)>", n: 2 }],
    digits: 3,
    caption: "<b>c</b>",
  });
});

test("table() text fallback right-aligns numbers and lines up each column's decimals", () => {
  const [bundle] = capture(() =>
    table(
      [
        { splitter: "window", overlap: 12.5 },
        { splitter: "langchain", overlap: 200 },
      ],
      { digits: 1 },
    ),
  );
  assert.equal(
    bundle.data["text/plain"],
    "splitter   overlap\n---------  -------\nwindow        12.5\nlangchain    200.0",
  );
});

test("table() shows a numeric column with the fewest decimals (at most digits) its values need", () => {
  const rows = [
    { n: 3, rate: 60.1, p: 0.123456, whole: 4 },
    { n: 5, rate: 63, p: 0.5, whole: 7 },
  ];
  const [bundle] = capture(() => table(rows, { digits: 3 }));
  const html = bundle.data["text/html"] as string;
  const cells = [...html.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells, ["3", "60.1", "0.123", "4", "5", "63.0", "0.500", "7"]);
  const [plain] = capture(() => table([{ x: 1.0000001 }, { x: 2 }], { digits: 2 }));
  assert.equal(plain.data["text/plain"], "x\n-\n1\n2");
});

test("table() formats a column of numbers and n/a cells as numbers: one number of decimals, right-aligned", () => {
  const rows = [{ gap: -28.7 }, { gap: "n/a" }, { gap: -32 }, { gap: 7.5 }];
  const [bundle] = capture(() => table(rows, { digits: 3 }));
  const html = bundle.data["text/html"] as string;
  const cells = [...html.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => m[1]);
  assert.deepEqual(cells, ["-28.7", "n/a", "-32.0", "7.5"]);
  // A column whose text is more than a placeholder stays text, but its numbers still share the decimals.
  const [mixed] = capture(() => table([{ v: "none" }, { v: 1.25 }, { v: 2 }], { digits: 3 }));
  const mixedHtml = mixed.data["text/html"] as string;
  assert.doesNotMatch(mixedHtml, /class="num"/);
  assert.match(mixedHtml, /<td>1\.25<\/td>[\s\S]*<td>2\.00<\/td>/);
});

test("table() takes columns in first-seen order across rows and leaves missing cells empty", () => {
  const [bundle] = capture(() => table([{ a: 1 }, { b: 2 }]));
  assert.deepEqual((bundle.data[TABLE_MIME] as { columns: string[] }).columns, ["a", "b"]);
  assert.deepEqual((bundle.data[TABLE_MIME] as { rows: unknown[] }).rows, [
    { a: 1, b: null },
    { a: null, b: 2 },
  ]);
});

test("chart() emits the vega-lite spec with its data rows and a text fallback naming the title", () => {
  const spec = { title: { text: "Recall" }, mark: "point", data: { values: [{ x: 1 }] } };
  const [bundle] = capture(() => chart(spec));
  assert.deepEqual(bundle.data[VEGA_LITE_MIME], spec);
  assert.notEqual(bundle.data[VEGA_LITE_MIME], spec, "a copy, not the caller's object");
  assert.equal(bundle.data["text/plain"], "[vega-lite chart: Recall]");
});

test("md() and headline() emit markdown and a headline payload for the index page", () => {
  const bundles = capture(() => {
    md("**bold**");
    headline("recommended_overlap", 100, { unit: "chars", label: "Recommended overlap" });
  });
  assert.deepEqual(bundles[0].data, { "text/markdown": "**bold**", "text/plain": "**bold**" });
  assert.deepEqual(bundles[1].data[HEADLINE_MIME], {
    key: "recommended_overlap",
    value: 100,
    label: "Recommended overlap",
    unit: "chars",
  });
  assert.equal(bundles[1].data["text/plain"], "Recommended overlap: 100 chars");
});

test("long tables show their first rows with a count of the rest, while the payload keeps every row", () => {
  const rows = Array.from({ length: 250 }, (_, i) => ({ i }));
  const [bundle] = capture(() => table(rows));
  const html = String(bundle.data["text/html"]);
  assert.equal(html.split("<tr>").length - 1, 1 + 200 + 1, "header, 200 rows, the note");
  assert.ok(html.includes('<td colspan="1" class="more">… 50 more rows (250 in all)</td>'));
  assert.ok(String(bundle.data["text/plain"]).endsWith("\n… 210 more rows (250 in all)"));
  assert.equal((bundle.data[TABLE_MIME] as { rows: unknown[] }).rows.length, 250);
});

test("mdSection() shows a section's heading only when the section has something to show", () => {
  const heading = "## A recall curve for plain prose\n\nWhy.";
  assert.deepEqual(
    capture(() => mdSection("moby-dick", heading)).map((bundle) => bundle.data["text/markdown"]),
    [heading],
  );
  for (const nothing of ["", undefined, false, 0])
    assert.deepEqual(
      capture(() => mdSection(nothing, heading)),
      [],
    );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as vl from "vega-lite";
import { barWithCI, heatmap, lineWithBand, overlapHistogram, scatter, PALETTE } from "../../src/charts/index";
import { binnedCounts } from "../../src/charts/histogram";
import { renderVegaLiteSvg } from "../../src/report/vega";
import { assertMatchesSnapshot } from "../helpers/snapshot";
import { textBoxes } from "./svg-layout";

const snapshots = fileURLToPath(new URL("./snapshots/", import.meta.url));

/** The parts of a vega-lite spec these tests look into. */
interface Encoding {
  field?: string;
  datum?: unknown;
  sort?: unknown;
  scale?: { domain?: unknown; range?: unknown };
}
interface SpecShape {
  title: { text: string };
  data: { values: unknown[] };
  facet: { row: Encoding };
  layer: { mark: { type: string }; encoding: Record<string, Encoding> }[];
}
const shape = (spec: Record<string, unknown>) => spec as unknown as SpecShape;

const seams = [
  { splitter: "window", overlap: 180 },
  { splitter: "langchain", overlap: 0 },
  { splitter: "langchain", overlap: 40 },
  { splitter: "window", overlap: 210 },
];
const sweep = [0, 100, 200].flatMap((x) =>
  ["bm25", "dense"].map((series, i) => ({
    x,
    series,
    y: 0.5 + i / 10 + x / 1000,
    low: 0.45 + i / 10 + x / 1000,
    high: 0.55 + i / 10 + x / 1000,
  })),
);

const builders = {
  histogram: () =>
    overlapHistogram(seams, {
      title: "Real overlap",
      xTitle: "real overlap (chars)",
      marker: { value: 200, label: "configured 200" },
    }),
  bar: () =>
    barWithCI([{ label: "langchain", value: 0.5, low: 0.4, high: 0.6 }], {
      title: "Zero overlap",
      valueTitle: "seams (%)",
      percent: true,
    }),
  line: () =>
    lineWithBand(sweep, {
      title: "Recall",
      xTitle: "overlap (chars)",
      yTitle: "recall@5 (%)",
      percent: true,
      knees: [{ x: 100, label: "knee 100" }],
    }),
  heatmap: () =>
    heatmap(
      [
        { x: 0, y: 5, value: 3 },
        { x: 100, y: 5, value: 4 },
        { x: 0, y: 10, value: 6 },
      ],
      { title: "Distinct", xTitle: "overlap (chars)", yTitle: "k", valueTitle: "distinct passages" },
    ),
  scatter: () =>
    scatter(
      [
        { x: 0, y: 0.2, series: "a" },
        { x: 50, y: 0.5, series: "a" },
        { x: 100, y: 0.7, series: "a" },
        { x: 150, y: 0.8, series: "a" },
      ],
      { title: "Similarity", xTitle: "overlap (chars)", yTitle: "cosine", trend: true },
    ),
};

for (const [name, build] of Object.entries(builders)) {
  test(`the ${name} builder compiles with vega-lite and renders an SVG with marks and its title`, async () => {
    const spec = build();
    assert.doesNotThrow(() => vl.compile(spec as unknown as vl.TopLevelSpec));
    const svg = await renderVegaLiteSvg(spec, "t-");
    assert.match(svg, /^<svg/);
    assert.match(svg, /class="mark-(rect|line|area|symbol|rule|text)/);
    assert.ok(svg.includes(String(shape(spec).title.text)));
  });

  test(`the ${name} spec matches its reviewed snapshot and keeps its rows inline for "download data"`, () => {
    const spec = build();
    assert.ok(Array.isArray(shape(spec).data.values));
    assertMatchesSnapshot(spec, join(snapshots, `${name}.json`));
  });
}

test("the palette is the published Okabe–Ito set (colour-blind safe)", () => {
  // Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black.
  const published = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"];
  assert.deepEqual([...PALETTE].sort(), [...published].sort());
});

test("series keep the caller's order in facets and colours", () => {
  const spec = shape(builders.histogram());
  assert.deepEqual(spec.facet.row.sort, ["window", "langchain"]);
  const line = shape(builders.line());
  const color = line.layer[1].encoding.color;
  assert.deepEqual(color.scale?.domain, ["bm25", "dense"]);
  assert.deepEqual(color.scale?.range, [PALETTE[0], PALETTE[1]]);
});

test("the knee is drawn once as a rule and a label at its x", async () => {
  const spec = builders.line();
  const rules = shape(spec).layer.filter((layer) => layer.mark.type === "rule");
  assert.equal(rules.length, 1);
  assert.equal(rules[0].encoding.x.datum, 100);
  const svg = await renderVegaLiteSvg(spec, "k-");
  // Once as the label and once as its white outline (the halo that keeps it readable over the lines).
  assert.equal(textBoxes(svg).filter((box) => box.text === "knee 100").length, 1);
  assert.equal(svg.split("knee 100").length - 1, 2);
});

test("the bar chart draws an error bar from low to high for each category", () => {
  const rule = shape(builders.bar()).layer.find((layer) => layer.mark.type === "rule")!;
  assert.equal(rule.encoding.x.field, "low");
  assert.equal(rule.encoding.x2.field, "high");
});

test("chart ids are prefixed so two charts on a page never share a clip path id", async () => {
  // Clipped marks are what make vega emit <clipPath id="clipN">.
  const clipped = {
    ...builders.scatter(),
    layer: [
      {
        mark: { type: "point", clip: true },
        encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } },
      },
    ],
  };
  const a = await renderVegaLiteSvg(clipped, "a-");
  const b = await renderVegaLiteSvg(clipped, "b-");
  const ids = (svg: string) => [...svg.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(ids(a).length > 0);
  assert.ok(ids(a).every((id) => id.startsWith("a-")));
  assert.deepEqual(
    ids(a).filter((id) => ids(b).includes(id)),
    [],
  );
  for (const ref of a.matchAll(/url\(#([^)]+)\)/g)) assert.ok(ids(a).includes(ref[1]), `dangling reference ${ref[1]}`);
  // vega's clip counter is process-wide; the renumbering makes the SVG independent of what was rendered before.
  assert.equal(await renderVegaLiteSvg(clipped, "a-"), a);
});

test("a spec pointing at remote data fails instead of fetching it", async () => {
  await assert.rejects(
    renderVegaLiteSvg({ data: { url: "https://example.com/x.csv" }, mark: "point" }, "r-"),
    /inline/,
  );
});

test("a long subtitle is broken into lines at word boundaries so the chart keeps its width", async () => {
  const { wrapTitleText } = await import("../../src/charts/theme");
  assert.equal(wrapTitleText("short subtitle"), "short subtitle");
  const long =
    "recursive size 1000, BM25 first stage; dense = cosine under lsa-128 (TF-IDF+SVD fitted on each config's chunks; not a neural model); MMR λ=0.5";
  const lines = wrapTitleText(long) as string[];
  assert.ok(Array.isArray(lines) && lines.length === 2, JSON.stringify(lines));
  assert.ok(lines.every((line) => line.length <= 90));
  assert.equal(lines.join(" "), long);
  const spec = heatmap([{ x: 0, y: 5, value: 3 }], {
    title: "Distinct",
    subtitle: long,
    xTitle: "overlap (chars)",
    yTitle: "k",
    valueTitle: "distinct",
  });
  assert.deepEqual((spec.title as { subtitle: string[] }).subtitle, lines);
});

test("binnedCounts bins as vega-lite's bin {step}: extent widened to the step, the top value in the last bin", () => {
  const rows = [
    { s: "a", v: 23 },
    { s: "a", v: 40 },
    { s: "a", v: 59.5 },
    { s: "b", v: 100 },
    { s: "b", v: Number.NaN },
    { s: "b", v: 79.99 },
  ];
  assert.deepEqual(binnedCounts(rows, "v", "s", 20), [
    { series: "a", start: 20, end: 40, count: 1 },
    { series: "a", start: 40, end: 60, count: 2 },
    { series: "b", start: 60, end: 80, count: 1 },
    { series: "b", start: 80, end: 100, count: 1 },
  ]);
  assert.deepEqual(binnedCounts([{ s: "a", v: 7 }], "v", "s", 5), [{ series: "a", start: 5, end: 10, count: 1 }]);
  assert.deepEqual(binnedCounts([], "v", "s", 5), []);
});

test("a histogram with binStep carries one row per bin and draws the bars vega-lite draws from the raw rows", async () => {
  const many = Array.from({ length: 3000 }, (_, i) => ({
    splitter: i % 3 === 0 ? "window" : "langchain",
    overlap: i % 3 === 0 ? 200 : (i * 37) % 201,
  }));
  const options = { title: "Real overlap", xTitle: "real overlap (chars)", binStep: 20 };
  const spec = overlapHistogram(many, { ...options, marker: { value: 200, label: "configured 200" } });
  const values = shape(spec).data.values as { count: number }[];
  assert.ok(values.length <= 2 * 10, `${values.length} rows`);
  assert.equal(
    values.reduce((sum, row) => sum + row.count, 0),
    many.length,
  );
  // The same chart binned by vega-lite from every raw row, as the builder made it before it counted bins itself.
  const raw = JSON.parse(JSON.stringify(spec));
  raw.data = { values: many };
  raw.spec.layer[0].encoding = {
    x: { field: "overlap", type: "quantitative", bin: { step: 20 }, title: options.xTitle },
    y: { aggregate: "count", type: "quantitative", title: "seams" },
    color: raw.spec.layer[0].encoding.color,
  };
  const bars = async (s: Record<string, unknown>) =>
    [...(await renderVegaLiteSvg(s, "h-")).matchAll(/aria-label="([^"]*)"/g)].map((m) => m[1]).sort();
  const drawn = await bars(spec);
  assert.deepEqual(drawn, await bars(raw));
  assert.ok(
    drawn.some((label) => /180 – 200; seams: 1000; splitter: window/.test(label)),
    drawn.join("\n"),
  );
});

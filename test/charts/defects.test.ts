// The chart defects of issue 31, each pinned on the spec a builder returns (the SVG goldens and layout checks in
// svg.test.ts see the rendering): tiny groups, rule labels, heatmap anchoring, small-rate bars, legends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { barWithCI, heatmap, lineWithBand } from "../../src/charts/index";
import { barDomain } from "../../src/charts/bar";
import { placeRuleLabels, spreadVertically } from "../../src/charts/label-layout";
import { baseConfig, estimateTextWidth, niceDomain, seriesLegend } from "../../src/charts/theme";
import { lineFixtures } from "./fixtures/line";

interface Layer {
  name?: string;
  mark: { type: string; align?: string };
  encoding: Record<string, { value?: unknown; scale?: { domain?: [number, number] } }>;
  layer?: Layer[];
}
interface Panel {
  layer: Layer[];
  title?: { text: string };
}

const yDomainOf = (panel: Panel) =>
  panel.layer.find((layer) => layer.mark.type === "line")?.encoding.y.scale?.domain as [number, number];
const textsOf = (panel: Panel) =>
  panel.layer.filter((layer) => layer.mark.type === "text").map((layer) => String(layer.encoding.text.value));

test("a group under 30 queries goes to its own panel labelled with its n, and the main y axis ignores its band", () => {
  const spec = lineFixtures["line-tiny-groups"]() as unknown as { vconcat: Panel[] };
  assert.equal(spec.vconcat.length, 2);
  const [main, small] = spec.vconcat;
  // The 2-query group sits at 100% with a 34-100% band; the others lie between 38% and 65%.
  assert.deepEqual(yDomainOf(main), [0.35, 0.7]);
  assert.deepEqual(textsOf(small), ["n = 2", "n = 17"]);
  assert.match(small.title!.text, /Under 30 queries/);
  assert.deepEqual(yDomainOf(small), [0, 1]);
});

test("groups that all have enough queries, or rows without a count, draw one chart as before", () => {
  const rows = [0, 100].flatMap((x) => ["a", "b"].map((series) => ({ x, series, y: 0.5, low: 0.4, high: 0.6, n: 30 })));
  const spec = lineWithBand(rows, { title: "t", xTitle: "x", yTitle: "y", percent: true });
  assert.equal(spec.vconcat, undefined);
  assert.ok(Array.isArray(spec.layer));
  const noCount = lineWithBand(
    rows.map(({ n: _n, ...row }) => row),
    { title: "t", xTitle: "x", yTitle: "y" },
  );
  assert.equal(noCount.vconcat, undefined);
});

test("charts of no rows still render (an empty section's chart)", async () => {
  const { renderVegaLiteSvg } = await import("../../src/report/vega");
  const options = { title: "t", xTitle: "x", yTitle: "y", valueTitle: "v", knees: [{ x: 5, label: "k" }] };
  for (const spec of [lineWithBand([], options), barWithCI([], options), heatmap([], options)])
    assert.match(await renderVegaLiteSvg(spec, "e-"), /^<svg/);
});

test("rule labels at neighbouring x take separate lanes, and one at the right edge turns to the left of its rule", () => {
  const labels = [
    { at: 70, text: "headers paired rule: 50" },
    { at: 140, text: "ict (undecided) paired rule: 100" },
    { at: 210, text: "reference paired rule: 150" },
    { at: 560, text: "Kneedle: 400" },
  ];
  const placed = placeRuleLabels(labels, 560, 280);
  assert.deepEqual(
    placed.map((p) => [p!.align, p!.y]),
    [
      ["left", 4],
      ["left", 19],
      ["left", 34],
      ["right", 4],
    ],
  );
  for (const p of placed) assert.ok(p!.box.x0 >= 0 && p!.box.x1 <= 560);
  // No lane can hold a label wider than the plot: it comes back null for the caller to list elsewhere.
  assert.deepEqual(placeRuleLabels([{ at: 10, text: "x".repeat(80) }], 560, 280), [null]);
});

test("a rule label no lane can hold is named in the subtitle instead of overprinting", () => {
  const knees = Array.from({ length: 6 }, (_, i) => ({ x: 100 + i, label: `a long rule label number ${i} here` }));
  const spec = lineWithBand(
    [
      { x: 0, y: 0.5 },
      { x: 200, y: 0.6 },
    ],
    {
      title: "t",
      xTitle: "x",
      yTitle: "y",
      height: 40,
      knees,
    },
  );
  // Two lanes fit in 40 px; three labels find room in them (right or left of the rules), the rest are listed.
  const subtitle = [(spec.title as { subtitle: string | string[] }).subtitle].flat().join(" ");
  assert.match(subtitle, /^also marked: a long rule label number 3 here \(dashed rule at 103\); a long/);
  assert.ok(!subtitle.includes("number 2"));
});

test("labels at the end of lines are moved apart by a line and kept inside the panel", () => {
  assert.deepEqual(spreadVertically([50, 52, 200], 110), [50, 63, 103.5]);
  assert.deepEqual(spreadVertically([0], 110), [6.5]);
});

test("a heatmap of rates is coloured from 0 to 100%, so 57% against 62% is a small step; differences diverge at 0", () => {
  const colour = (spec: Record<string, unknown>) =>
    (spec.layer as { encoding: { color: { scale: Record<string, unknown> } } }[])[0].encoding.color.scale;
  const rates = [57, 58, 60, 62].map((v, i) => ({ x: i, y: 1, value: v / 100 }));
  const options = { title: "t", xTitle: "x", yTitle: "y", valueTitle: "v" };
  assert.deepEqual(colour(heatmap(rates, { ...options, percent: true })), { scheme: "viridis", domain: [0, 1] });
  const counts = [3.2, 4.8].map((value, i) => ({ x: i, y: 1, value }));
  assert.deepEqual(colour(heatmap(counts, options)).domain, [0, 5]);
  const diffs = [-0.04, 0.01].map((value, i) => ({ x: i, y: 1, value }));
  assert.deepEqual(colour(heatmap(diffs, options)), { scheme: "blueorange", domain: [-0.04, 0.04], domainMid: 0 });
});

test("bars of rates use the full 0-100% axis unless all are under a fifth of it; then the axis title says where it ends", () => {
  assert.deepEqual(barDomain(0.62, 1), { domain: [0, 1], cut: false });
  assert.deepEqual(barDomain(2.74, 100), { domain: [0, 3.5], cut: true });
  assert.deepEqual(barDomain(2.74, undefined), { domain: [0, 3.5], cut: false });
  const spec = barWithCI([{ label: "a", value: 2.31, low: 1.9, high: 2.74 }], {
    title: "t",
    valueTitle: "span IoU (%)",
    scaleMax: 100,
  });
  const bar = (spec.layer as { encoding: { x: { title: string; scale: { domain: number[] } } } }[])[0];
  assert.equal(bar.encoding.x.title, "span IoU (%); axis ends at 3.5 of 100");
  // The longest bar with its error bar ends at most 80% along the axis: it does not look full.
  assert.ok(2.74 / bar.encoding.x.scale.domain[1] <= 0.8);
});

test("legends never cut a label short, and long labels are laid out in as many columns as fit", () => {
  assert.equal((baseConfig().legend as { labelLimit: number }).labelLimit, 0);
  const short = seriesLegend(["a", "b", "c"], 560);
  assert.equal(short.columns, 3);
  const long = ["dense: cosine under lsa-128 (TF-IDF+SVD fitted on each config's chunks)", "b"];
  assert.ok(estimateTextWidth(long[0], 11) > 560 / 2);
  assert.equal(seriesLegend(long, 560).columns, 1);
});

test("niceDomain rounds a domain's ends outward to a tick step, as d3's nice does", () => {
  assert.deepEqual(niceDomain(0.38, 0.65), [0.35, 0.65]);
  assert.deepEqual(niceDomain(0.38, 0.66), [0.35, 0.7]);
  assert.deepEqual(niceDomain(0, 400), [0, 400]);
  assert.deepEqual(niceDomain(-0.032, 0.004), [-0.04, 0.01]);
  assert.deepEqual(niceDomain(5, 5), [4.4, 5.6]);
  assert.deepEqual(niceDomain(Infinity, -Infinity), [0, 1]);
});

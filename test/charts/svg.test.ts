// Every chart fixture rendered through the report's own renderer (src/report/vega.ts) and compared with its reviewed
// SVG under test/charts/svg/ (as Observable Plot tests its plots), then read back for layout: no two texts overprint,
// nothing leaves the SVG, the chart's own labels stay inside its plot, no legend label is cut short.
// Regenerate after an intended change, then review the SVGs (they open in any browser):
//   SEAMLAB_UPDATE_SNAPSHOTS=1 npx tsx scripts/test.ts test/charts/     (npm run snapshots:update)
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderVegaLiteSvg } from "../../src/report/vega";
import { UPDATE_VARIABLE } from "../helpers/snapshot";
import { chartFixtures } from "./fixtures/index";
import { lineFixtures } from "./fixtures/line";
import { lineWithBand } from "../../src/charts/index";
import {
  lineSegments,
  markTextsOutsideViews,
  overlappingTexts,
  segmentCrossesBox,
  svgForDiff,
  svgSize,
  textBoxes,
  textsOutside,
} from "./svg-layout";

const goldens = fileURLToPath(new URL("./svg/", import.meta.url));

const rendered = new Map<string, Promise<string>>();
function svgOf(name: string): Promise<string> {
  if (!rendered.has(name)) rendered.set(name, renderVegaLiteSvg(chartFixtures[name](), `${name}-`));
  return rendered.get(name)!;
}

const describe = (box: { text: string; role: string; x0: number; x1: number; y0: number; y1: number }) =>
  `"${box.text}" (${box.role}) at x ${box.x0.toFixed(0)}-${box.x1.toFixed(0)}, y ${box.y0.toFixed(0)}-${box.y1.toFixed(0)}`;

for (const name of Object.keys(chartFixtures)) {
  test(`the ${name} chart renders as its reviewed SVG golden`, async () => {
    const actual = svgForDiff(await svgOf(name));
    const path = join(goldens, `${name}.svg`);
    if (process.env[UPDATE_VARIABLE]) {
      mkdirSync(goldens, { recursive: true });
      writeFileSync(path, actual);
      return;
    }
    assert.ok(existsSync(path), `no golden test/charts/svg/${name}.svg: run with ${UPDATE_VARIABLE}=1, then review it`);
    const expected = readFileSync(path, "utf8");
    if (actual === expected) return;
    const a = actual.split("\n");
    const e = expected.split("\n");
    const line = a.findIndex((text, i) => text !== e[i]);
    assert.fail(
      `test/charts/svg/${name}.svg differs from line ${line + 1} (if intended, rerun with ${UPDATE_VARIABLE}=1 ` +
        `and review the SVG):\n  golden:   ${e[line]}\n  rendered: ${a[line]}`,
    );
  });

  test(`the ${name} chart has no overprinted text, and every text inside the SVG and its own labels inside the plot`, async () => {
    const svg = await svgOf(name);
    const boxes = textBoxes(svg);
    assert.ok(boxes.length > 3, "the chart has texts to check");
    const overlaps = overlappingTexts(boxes).map(([a, b]) => `${describe(a)} overprints ${describe(b)}`);
    assert.deepEqual(overlaps, []);
    assert.deepEqual(textsOutside(boxes, svgSize(svg)).map(describe), []);
    assert.deepEqual(markTextsOutsideViews(svg).map(describe), []);
    const cut = boxes.filter((box) => box.text.includes("…")).map(describe);
    assert.deepEqual(cut, [], "no text is truncated with an ellipsis");
  });
}

test("the layout check sees overprinted rule labels and a label past the plot's right edge", async () => {
  // The spec notebook 03 drew before issue 31: every rule label left-aligned at its rule, at the top.
  const spec = lineFixtures["line-dense-labels"]() as { layer: Record<string, unknown>[] };
  const naive = {
    ...spec,
    layer: spec.layer.map((layer) => {
      const mark = layer.mark as { type: string; align?: string };
      const text = (layer.encoding as { text?: { value: string } }).text?.value ?? "";
      const rule = /rule: (\d+)|Kneedle: (\d+)/.exec(text);
      if (mark.type !== "text" || !rule) return layer;
      const x = Number(rule[1] ?? rule[2]);
      return {
        ...layer,
        mark: { ...mark, align: "left", dx: 5 },
        encoding: { ...(layer.encoding as object), x: { datum: x, type: "quantitative" }, y: { value: 4 } },
      };
    }),
  };
  const svg = await renderVegaLiteSvg(naive, "naive-");
  const overlaps = overlappingTexts(textBoxes(svg)).map(([a, b]) => `${a.text} / ${b.text}`);
  assert.ok(overlaps.includes("headers paired rule: 50 / ict (undecided) paired rule: 100"), overlaps.join("\n"));
  assert.deepEqual(
    markTextsOutsideViews(svg).map((box) => box.text),
    ["Kneedle: 400"],
  );
});

test("a legend label longer than the chart is shown whole", async () => {
  const svg = await svgOf("bar-series-legend");
  assert.ok(svg.includes("dense: cosine under lsa-128 (TF-IDF+SVD fitted on each config's chunks)</text>"));
  const svgLine = await svgOf("line-dense-labels");
  assert.ok(svgLine.includes(">reference (124 queries)</text>"));
});

test("the margin band's label never runs over the line, even where the line ends at the band's edge", async () => {
  // The fixture's last point is the best overlap: at 0, the band's top edge, where the label used to sit.
  const svg = await svgOf("line-margin-band");
  const label = textBoxes(svg).filter((box) => /margin|within|best/.test(box.text) && box.role.includes("role-mark"));
  assert.ok(label.length > 0, "the margin label is drawn");
  const segments = lineSegments(svg);
  assert.ok(segments.length >= 6, "the line is read");
  const crossed = label.filter((box) => segments.some((segment) => segmentCrossesBox(segment, box, 4)));
  assert.deepEqual(crossed.map(describe), []);
});

test("the line check sees a label the line runs through", async () => {
  // The placement before this check: right-aligned inside the plot, just under the band's top edge.
  const spec = lineFixtures["line-margin-band"]() as { layer: Record<string, unknown>[] };
  const inside = {
    ...spec,
    layer: spec.layer.map((layer) =>
      String(layer.name ?? "").startsWith("beside_plot_band")
        ? {
            ...layer,
            mark: { ...(layer.mark as object), align: "right", baseline: "top", dy: 3 },
            encoding: {
              ...(layer.encoding as object),
              x: { value: 556 },
              y: { datum: 0, type: "quantitative" },
              text: { value: "margin: within 1 point of the best" },
            },
          }
        : layer,
    ),
  };
  const svg = await renderVegaLiteSvg(inside, "inside-");
  const label = textBoxes(svg).filter((box) => box.text.startsWith("margin"));
  assert.equal(label.length, 1);
  assert.ok(lineSegments(svg).some((segment) => segmentCrossesBox(segment, label[0], 4)));
});

test("a band's label and the small groups' n labels, both beside the plot, do not overprint", async () => {
  const rows = [0, 100, 200].flatMap((x) => [
    { x, y: -0.005, low: -0.03, high: 0.004, series: "table", n: 12 },
    { x, y: 0, low: -0.02, high: 0.004, series: "code", n: 17 },
  ]);
  const spec = lineWithBand(rows, {
    title: "Difference from the best, two small groups",
    xTitle: "overlap",
    yTitle: "points",
    yBands: [{ from: -0.01, to: 0, label: "margin: within 1 point of the best" }],
  });
  const boxes = textBoxes(await renderVegaLiteSvg(spec, "both-beside-"));
  assert.ok(boxes.some((box) => box.text === "n = 17") && boxes.some((box) => box.text.startsWith("margin")));
  assert.deepEqual(
    overlappingTexts(boxes).map(([a, b]) => `${describe(a)} overprints ${describe(b)}`),
    [],
  );
});

// barWithCI with two rows per category (one per series, e.g. notebook 03's equal budget beside plain hit@k): the
// bars sit side by side, each from 0, never stacked end to end (a stacked bar's length is the sum of two rates
// and ran past the 100% axis on the report's page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { barWithCI } from "../../src/charts/index";

type Layer = { mark: { type: string } | string; encoding: Record<string, Record<string, unknown>> };

const rows = ["500/0", "1000/0"].flatMap((label) => [
  { label, series: "equal budget", value: 0.78, low: 0.75, high: 0.81 },
  { label, series: "plain hit@5", value: 0.68, low: 0.65, high: 0.71 },
]);

test("bars of two series in one category are offset side by side and not stacked", () => {
  const spec = barWithCI(rows, { title: "t", valueTitle: "hit rate", series: "series", percent: true }) as {
    layer: Layer[];
  };
  const [bar, ...rest] = spec.layer;
  assert.equal(bar.encoding.x.stack, null);
  for (const layer of [bar, ...rest]) assert.deepEqual(layer.encoding.yOffset?.field, "series");
});

test("one row per category keeps the plain bars (no offset)", () => {
  const single = rows.filter((row) => row.series === "equal budget");
  const spec = barWithCI(single, { title: "t", valueTitle: "hit rate", series: "series", percent: true }) as {
    layer: Layer[];
  };
  assert.equal(spec.layer[0].encoding.yOffset, undefined);
  assert.equal(spec.layer[0].encoding.x.stack, undefined);
});

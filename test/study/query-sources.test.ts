import test from "node:test";
import assert from "node:assert/strict";
import { sourceRecommendationText } from "../../src/study/query-sources";

type Sweeps = Parameters<typeof sourceRecommendationText>[0]["sweeps"];
const sweep = (source: string, overlap: number, verdict: "decided" | "undecided") =>
  ({
    source,
    inputs: { queryLabel: `300 ${source} queries` },
    result: { curves: [{ points: [{ x: overlap, y: 0.5 }] }] },
    recommendation: { overlap, verdict },
  }) as unknown as Sweeps[number];

test("03 says the query sources disagree only when both verdicts are settled", () => {
  const text = (sweeps: Sweeps) => sourceRecommendationText({ sweeps, missing: [] }, 5);
  assert.match(text([sweep("headers", 50, "decided"), sweep("ict", 100, "decided")]), /The sources disagree/);
  const unsettled = text([sweep("headers", 50, "decided"), sweep("ict", 100, "undecided")]);
  assert.match(unsettled, /overlap \*\*100\*\* \(hit rate@5 50\.0%, the safe pick of an undecided verdict\)/);
  assert.match(unsettled, /The picks differ, but ict is undecided, so this is not yet evidence/);
  assert.doesNotMatch(unsettled, /disagree/);
  assert.match(text([sweep("headers", 50, "undecided"), sweep("ict", 50, "decided")]), /The sources agree/);
});

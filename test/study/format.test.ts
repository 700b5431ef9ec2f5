import test from "node:test";
import assert from "node:assert/strict";
import { points, pointsInterval } from "../../src/study/format";

test("points turns a fraction into percentage points with one decimal", () => {
  assert.equal(points(0.6634), 66.3);
  assert.equal(points(-0.017), -1.7);
  assert.equal(points(0), 0);
});

test("pointsInterval signs both ends and always shows one decimal, so a column of intervals lines up", () => {
  assert.equal(pointsInterval(0.053, 0.14), "[+5.3, +14.0]");
  assert.equal(pointsInterval(-0.01, 0.043), "[-1.0, +4.3]");
  assert.equal(pointsInterval(0, 0), "[+0.0, +0.0]");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { longestFirst } from "../../src/report/schedule";

const paths = ["nb/01-a.ipynb", "nb/02-b.ipynb", "nb/03-c.ipynb", "nb/07-d.ipynb"];

test("notebooks start longest first by the typical times when no earlier report timed them all", () => {
  // typical: 03 > 01 > 07 > 02; one previous time alone does not override them
  assert.deepEqual(longestFirst(paths, [undefined, 90_000, undefined, undefined]), [2, 0, 3, 1]);
});

test("an earlier report's times for every notebook decide the order, ties in file order", () => {
  assert.deepEqual(longestFirst(paths, [5_000, 40_000, 5_000, 20_000]), [1, 3, 0, 2]);
});

test("a notebook without a typical time counts as long and starts first", () => {
  assert.deepEqual(longestFirst(["x/01-a.ipynb", "x/99-new.ipynb"]), [1, 0]);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";
import { multiplyDense, transposeCsr } from "../../src/embed/sparse";
import { csrFromDense } from "../helpers/csr";

// Rows of 0 to 11 non-zeros (so the four-at-a-time pass and its remainder both run), values of mixed sign and scale.
const random = seededRandom(7);
const rows = 40;
const cols = 30;
const width = 9;
const dense = Array.from({ length: rows }, (_, i) =>
  Array.from({ length: cols }, () => (random() < (i % 12) / cols ? (random() - 0.5) * 10 ** (3 * random()) : 0)),
);
const a = csrFromDense(dense);
const d = Float64Array.from({ length: cols * width }, () => random() - 0.5);
const e = Float64Array.from({ length: rows * width }, () => random() - 0.5);

test("the test matrix has rows long enough for the unrolled pass and rows left over from it", () => {
  const lengths = Array.from({ length: rows }, (_, i) => a.rowStart[i + 1] - a.rowStart[i]);
  assert.ok(lengths.some((n) => n >= 8) && lengths.some((n) => n % 4 !== 0) && lengths.includes(0), `${lengths}`);
});

test("multiplyDense adds each row's products in the order of one += per non-zero (bit-identical)", () => {
  const expected = new Float64Array(rows * width);
  for (let i = 0; i < rows; i++)
    for (let p = a.rowStart[i]; p < a.rowStart[i + 1]; p++)
      for (let c = 0; c < width; c++) expected[i * width + c] += a.values[p] * d[a.colIndex[p] * width + c];
  assert.deepEqual(multiplyDense(a, d, width), expected);
});

test("multiplyDense over transposeCsr equals the scatter over A's rows (bit-identical)", () => {
  const aT = transposeCsr(a);
  assert.equal(aT.rows, cols);
  assert.equal(aT.cols, rows);
  assert.deepEqual(transposeCsr(aT), a);
  const scattered = new Float64Array(cols * width);
  for (let i = 0; i < rows; i++)
    for (let p = a.rowStart[i]; p < a.rowStart[i + 1]; p++)
      for (let c = 0; c < width; c++) scattered[a.colIndex[p] * width + c] += a.values[p] * e[i * width + c];
  assert.deepEqual(multiplyDense(aT, e, width), scattered);
  let nonZero = 0;
  for (const x of scattered) if (x !== 0) nonZero++;
  assert.ok(nonZero > scattered.length / 2, `${nonZero} of ${scattered.length}`);
});

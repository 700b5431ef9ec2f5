import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";
import { gram, multiplyRowMajor } from "../../src/embed/randomized-svd";

/** One output row at a time, four inner terms per `+=`, then one `+=` per leftover non-zero: the defining sums. */
function oneRowAtATime(left: Float64Array, rows: number, inner: number, right: Float64Array, cols: number) {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    let j = 0;
    for (; j + 4 <= inner; j += 4) {
      const v = [0, 1, 2, 3].map((t) => left[i * inner + j + t]);
      for (let c = 0; c < cols; c++) {
        const r = [0, 1, 2, 3].map((t) => right[(j + t) * cols + c]);
        out[i * cols + c] += v[0] * r[0] + v[1] * r[1] + v[2] * r[2] + v[3] * r[3];
      }
    }
    for (; j < inner; j++) {
      if (left[i * inner + j] === 0) continue;
      for (let c = 0; c < cols; c++) out[i * cols + c] += left[i * inner + j] * right[j * cols + c];
    }
  }
  return out;
}

test("multiplyRowMajor's two-rows-per-pass blocking gives the one-row sums bit for bit (odd sizes, zeros)", () => {
  const random = seededRandom(11);
  for (const [rows, inner, cols] of [
    [7, 11, 5],
    [8, 12, 3],
    [1, 3, 4],
  ]) {
    const left = Float64Array.from({ length: rows * inner }, () =>
      random() < 0.2 ? 0 : (random() - 0.5) * 10 ** (4 * random()),
    );
    const right = Float64Array.from({ length: inner * cols }, () => (random() - 0.5) * 10 ** (4 * random()));
    assert.deepEqual(multiplyRowMajor(left, rows, inner, right, cols), oneRowAtATime(left, rows, inner, right, cols));
  }
});

/** Yᵀ·Y adding four rows of Y per `+=`, then one `+=` per leftover row: the defining sums of `gram`. */
function gramOneColumnAtATime(y: Float64Array, rows: number, width: number) {
  const g = new Float64Array(width * width);
  let i = 0;
  for (; i + 4 <= rows; i += 4) {
    for (let a = 0; a < width; a++) {
      for (let b = a; b < width; b++) {
        let sum = 0;
        for (let t = 0; t < 4; t++)
          sum = t === 0 ? y[i * width + a] * y[i * width + b] : sum + y[(i + t) * width + a] * y[(i + t) * width + b];
        g[a * width + b] += sum;
      }
    }
  }
  for (; i < rows; i++)
    for (let a = 0; a < width; a++)
      for (let b = a; b < width; b++) g[a * width + b] += y[i * width + a] * y[i * width + b];
  for (let a = 0; a < width; a++) for (let b = 0; b < a; b++) g[a * width + b] = g[b * width + a];
  return g;
}

test("gram's two-columns-per-pass blocking gives the same sums bit for bit (odd width, zero columns, leftover rows)", () => {
  const random = seededRandom(5);
  for (const [rows, width] of [
    [10, 7],
    [8, 6],
    [3, 5],
  ]) {
    // Column 2 is zero in every row and column 3 in some: the skip of all-zero pairs must not change a bit.
    const y = Float64Array.from({ length: rows * width }, (_, at) =>
      at % width === 2 || (at % width === 3 && random() < 0.5) ? 0 : (random() - 0.5) * 10 ** (4 * random()),
    );
    assert.deepEqual(gram(y, rows, width), gramOneColumnAtATime(y, rows, width));
  }
});

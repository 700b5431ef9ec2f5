import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";
import { multiplyRowMajor } from "../../src/embed/randomized-svd";

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

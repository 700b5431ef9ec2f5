import assert from "node:assert/strict";
import { test } from "node:test";
import { seededRandom } from "../../src/core/random";
import { csrProductWasm, gramGroupsWasm, rowMajorProductWasm } from "../../src/embed/dense-products";
import { gram, multiplyRowMajor } from "../../src/embed/randomized-svd";
import { multiplyDense } from "../../src/embed/sparse";
import { csrFromDense } from "../helpers/csr";

/** rows × cols with about a third zeros (whole zero rows and columns included), values of mixed sign and scale. */
function randomMatrix(rows: number, cols: number, seed: number): Float64Array {
  const random = seededRandom(seed);
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i++) {
    const row = Math.floor(i / cols);
    const col = i % cols;
    if (random() < 0.33 || row % 7 === 3 || col % 5 === 4) continue;
    out[i] = (random() - 0.5) * 10 ** Math.floor(random() * 6 - 3);
  }
  return out;
}

test("Node 20 runs the lsa products' WebAssembly kernels, so the fit takes them", () => {
  assert.ok(rowMajorProductWasm(new Float64Array(4), 2, 2, new Float64Array(4), 2));
  assert.ok(gramGroupsWasm(new Float64Array(8), 4, 2));
  assert.ok(csrProductWasm(csrFromDense([[1, 2]]), new Float64Array(2), 1));
  // A short text against a wide vocabulary reads too few rows of `dense` to pay for copying it.
  assert.equal(csrProductWasm(csrFromDense([[1, 0, 0]]), new Float64Array(3), 1), null);
});

test("the dense product kernel gives multiplyRowMajor's JavaScript sums bit for bit (blocks, odd sizes, zeros)", () => {
  // 1,100 rows cross the 512-row blocks; inner 2..11 covers groups of four and every leftover count.
  for (const [rows, inner, cols] of [
    [1100, 11, 7],
    [5, 4, 8],
    [3, 2, 1],
    [600, 9, 266],
  ]) {
    const left = randomMatrix(rows, inner, rows + inner);
    const right = randomMatrix(inner, cols, cols);
    assert.deepEqual(
      multiplyRowMajor(left, rows, inner, right, cols),
      multiplyRowMajor(left, rows, inner, right, cols, false),
      `${rows} x ${inner} x ${cols}`,
    );
  }
});

test("the Gram kernel gives gram's JavaScript sums bit for bit (blocks, odd and even widths, leftover rows)", () => {
  for (const [rows, width] of [
    [1031, 7],
    [1026, 8],
    [4, 1],
    [3, 5],
    [130, 138],
  ]) {
    const y = randomMatrix(rows, width, rows * width);
    assert.deepEqual(gram(y, rows, width), gram(y, rows, width, false), `${rows} x ${width}`);
  }
});

test("the sparse product kernel gives multiplyDense's JavaScript sums bit for bit (blocks, empty rows, widths)", () => {
  for (const [rows, cols, width] of [
    [4500, 13, 5],
    [7, 30, 8],
    [2, 3, 1],
  ]) {
    const values = randomMatrix(rows, cols, rows + cols);
    const a = csrFromDense(
      Array.from({ length: rows }, (_, i) => Array.from(values.subarray(i * cols, (i + 1) * cols))),
    );
    const dense = randomMatrix(cols, width, width);
    assert.deepEqual(
      multiplyDense(a, dense, width),
      multiplyDense(a, dense, width, false),
      `${rows} x ${cols} x ${width}`,
    );
  }
});

test("calls in one burst share an instance, and no call sees another's numbers (largest first, all three kernels)", () => {
  const big = randomMatrix(900, 40, 1);
  const right = randomMatrix(40, 33, 2);
  assert.deepEqual(multiplyRowMajor(big, 900, 40, right, 33), multiplyRowMajor(big, 900, 40, right, 33, false));
  const y = randomMatrix(64, 9, 3);
  assert.deepEqual(gram(y, 64, 9), gram(y, 64, 9, false));
  const values = randomMatrix(50, 12, 4);
  const a = csrFromDense(Array.from({ length: 50 }, (_, i) => Array.from(values.subarray(i * 12, (i + 1) * 12))));
  const dense = randomMatrix(12, 3, 5);
  assert.deepEqual(multiplyDense(a, dense, 3), multiplyDense(a, dense, 3, false));
  const small = randomMatrix(6, 3, 6);
  const smallRight = randomMatrix(3, 5, 7);
  assert.deepEqual(multiplyRowMajor(small, 6, 3, smallRight, 5), multiplyRowMajor(small, 6, 3, smallRight, 5, false));
  assert.deepEqual(gram(small, 6, 3), gram(small, 6, 3, false));
});

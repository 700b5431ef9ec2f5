import { csrProductWasm } from "./dense-products";
import type { CsrMatrix } from "./types";

/**
 * out (rows × width) = A · D, four non-zeros per pass (the same sums in the same order as one `+=` each, with a
 * quarter of the loads and stores); in the WebAssembly kernel unless `useKernel` is false (tests compare the two).
 */
export function multiplyDense(a: CsrMatrix, dense: Float64Array, width: number, useKernel = true): Float64Array {
  const product = useKernel ? csrProductWasm(a, dense, width) : null;
  if (product) return product;
  const out = new Float64Array(a.rows * width);
  const { rowStart, colIndex, values } = a;
  for (let i = 0; i < a.rows; i++) {
    const outRow = i * width;
    const end = rowStart[i + 1];
    let p = rowStart[i];
    for (; p + 4 <= end; p += 4) {
      const v0 = values[p];
      const v1 = values[p + 1];
      const v2 = values[p + 2];
      const v3 = values[p + 3];
      const r0 = colIndex[p] * width;
      const r1 = colIndex[p + 1] * width;
      const r2 = colIndex[p + 2] * width;
      const r3 = colIndex[p + 3] * width;
      for (let c = 0; c < width; c++) {
        out[outRow + c] =
          out[outRow + c] + v0 * dense[r0 + c] + v1 * dense[r1 + c] + v2 * dense[r2 + c] + v3 * dense[r3 + c];
      }
    }
    for (; p < end; p++) {
      const v = values[p];
      const inRow = colIndex[p] * width;
      for (let c = 0; c < width; c++) out[outRow + c] += v * dense[inRow + c];
    }
  }
  return out;
}

/** Aᵀ in CSR form (rows of Aᵀ = columns of A), each row's entries in ascending row order of A. */
export function transposeCsr(a: CsrMatrix): CsrMatrix {
  const rowStart = new Int32Array(a.cols + 1);
  for (let p = 0; p < a.colIndex.length; p++) rowStart[a.colIndex[p] + 1]++;
  for (let j = 0; j < a.cols; j++) rowStart[j + 1] += rowStart[j];
  const next = rowStart.slice(0, a.cols);
  const colIndex = new Int32Array(a.colIndex.length);
  const values = new Float64Array(a.values.length);
  for (let i = 0; i < a.rows; i++) {
    for (let p = a.rowStart[i]; p < a.rowStart[i + 1]; p++) {
      const at = next[a.colIndex[p]]++;
      colIndex[at] = i;
      values[at] = a.values[p];
    }
  }
  return { rows: a.cols, cols: a.rows, rowStart, colIndex, values };
}

/** The rows of `a` and `b` in one matrix: row i is the next row of `a` when `fromA[i]`, else the next row of `b`. */
export function interleaveCsrRows(a: CsrMatrix, b: CsrMatrix, fromA: readonly boolean[]): CsrMatrix {
  const rowStart = new Int32Array(fromA.length + 1);
  const colIndex = new Int32Array(a.colIndex.length + b.colIndex.length);
  const values = new Float64Array(colIndex.length);
  let nextA = 0;
  let nextB = 0;
  let at = 0;
  fromA.forEach((takeA, row) => {
    const m = takeA ? a : b;
    const r = takeA ? nextA++ : nextB++;
    for (let p = m.rowStart[r]; p < m.rowStart[r + 1]; p++, at++) {
      colIndex[at] = m.colIndex[p];
      values[at] = m.values[p];
    }
    rowStart[row + 1] = at;
  });
  return { rows: fromA.length, cols: a.cols, rowStart, colIndex, values };
}

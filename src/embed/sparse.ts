/**
 * A sparse matrix in compressed sparse row form (rows = texts, columns = terms), plus the two products the
 * randomized SVD needs. Dense operands are row-major Float64Array, so every inner loop runs over contiguous memory.
 */
export interface CsrMatrix {
  rows: number;
  cols: number;
  /** rowStart[i]..rowStart[i+1] index the non-zeros of row i in `colIndex`/`values`. Length rows + 1. */
  rowStart: Int32Array;
  colIndex: Int32Array;
  values: Float64Array;
}

/** out (rows × width) = A (rows × cols) · D (cols × width). */
export function multiplyDense(a: CsrMatrix, dense: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let i = 0; i < a.rows; i++) {
    const outRow = i * width;
    for (let p = a.rowStart[i]; p < a.rowStart[i + 1]; p++) {
      const v = a.values[p];
      const inRow = a.colIndex[p] * width;
      for (let c = 0; c < width; c++) out[outRow + c] += v * dense[inRow + c];
    }
  }
  return out;
}

/** out (cols × width) = Aᵀ (cols × rows) · D (rows × width), without forming Aᵀ. */
export function multiplyTransposeDense(a: CsrMatrix, dense: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.cols * width);
  for (let i = 0; i < a.rows; i++) {
    const inRow = i * width;
    for (let p = a.rowStart[i]; p < a.rowStart[i + 1]; p++) {
      const v = a.values[p];
      const outRow = a.colIndex[p] * width;
      for (let c = 0; c < width; c++) out[outRow + c] += v * dense[inRow + c];
    }
  }
  return out;
}

/** Builds a CSR matrix from dense row-major values (tests and small examples). */
export function csrFromDense(values: number[][]): CsrMatrix {
  const rows = values.length;
  const cols = rows === 0 ? 0 : values[0].length;
  const rowStart = new Int32Array(rows + 1);
  const colIndex: number[] = [];
  const nz: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (values[i][j] !== 0) {
        colIndex.push(j);
        nz.push(values[i][j]);
      }
    }
    rowStart[i + 1] = colIndex.length;
  }
  return { rows, cols, rowStart, colIndex: Int32Array.from(colIndex), values: Float64Array.from(nz) };
}

import type { CsrMatrix } from "../../src/embed/types";

/** Builds a CSR matrix from dense row-major values (test fixtures). */
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

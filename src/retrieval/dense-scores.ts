// The inner loop of exact dense search in WebAssembly: f64x2 lanes do the same IEEE double multiply-adds, in the same
// dimension order, as `score += matrix[i] * q[d]` in JavaScript (bit-identical scores), two queries an instruction.
import { I32, lazyKernel, op, reserveWasmMemory, V128, type WasmInstance } from "../core/wasm";

export const QUERY_LANES = 8;

/**
 * `scores(rowsPtr, rows, dims, queriesPtr, outPtr)`: each Float32 row's dot products with 8 queries interleaved as
 * doubles (q[d * 8 + b]), 8 doubles per row at outPtr. dims >= 1.
 */
function scoresFunction() {
  // params: 0 row pointer (advances), 1 rows left, 2 dims, 3 queries, 4 out pointer (advances)
  // locals: 5 dims left, 6 query pointer, 7-10 the four f64x2 sums, 11 the row value splatted
  const { get, set, tee, i32 } = op;
  const body: number[] = [...op.block, ...get(1), ...op.i32Eqz, ...op.brIf(0), ...op.loop];
  for (let s = 7; s <= 10; s++) body.push(...op.v128Zero, ...set(s));
  body.push(...get(3), ...set(6), ...get(2), ...set(5), ...op.loop);
  body.push(...get(0), ...op.f32Load(), ...op.f64PromoteF32, ...op.f64x2Splat, ...set(11));
  for (let lane = 0; lane < 4; lane++) {
    body.push(...get(7 + lane), ...get(11), ...get(6), ...op.v128Load(16 * lane), ...op.f64x2Mul, ...op.f64x2Add);
    body.push(...set(7 + lane));
  }
  body.push(...get(0), ...i32(4), ...op.i32Add, ...set(0));
  body.push(...get(6), ...i32(8 * QUERY_LANES), ...op.i32Add, ...set(6));
  body.push(...get(5), ...i32(1), ...op.i32Sub, ...tee(5), ...op.brIf(0), ...op.end);
  for (let lane = 0; lane < 4; lane++) body.push(...get(4), ...get(7 + lane), ...op.v128Store(16 * lane));
  body.push(...get(4), ...i32(8 * QUERY_LANES), ...op.i32Add, ...set(4));
  body.push(...get(1), ...i32(1), ...op.i32Sub, ...tee(1), ...op.brIf(0), ...op.end, ...op.end);
  return {
    name: "scores",
    params: 5,
    locals: [
      [2, I32],
      [5, V128],
    ] as [number, number][],
    body,
  };
}

export const scoreKernel = lazyKernel(() => [scoresFunction()], kernelOf);

function kernelOf(instance: WasmInstance) {
  const { memory } = instance;
  const scores = instance.exports.scores as (rows: number, n: number, dims: number, q: number, out: number) => void;
  let rowsAt = 0;
  let outAt = 0;
  let queryBytes = 0;
  const state = {
    // views of the module's memory, [queries | rows | out], sized by the last `reserve`
    queries: new Float64Array(0),
    rows: new Float32Array(0),
    out: new Float64Array(0),
    /** Room for `queryBlocks` blocks of 8 interleaved queries and `rowCount` rows of `dims`, and their scores. */
    reserve(queryBlocks: number, rowCount: number, dims: number) {
      queryBytes = dims * QUERY_LANES * 8;
      rowsAt = queryBlocks * queryBytes;
      outAt = rowsAt + Math.ceil((rowCount * dims * 4) / 16) * 16;
      reserveWasmMemory(memory, outAt + rowCount * QUERY_LANES * 8);
      state.queries = new Float64Array(memory.buffer, 0, rowsAt / 8);
      state.rows = new Float32Array(memory.buffer, rowsAt, rowCount * dims);
      state.out = new Float64Array(memory.buffer, outAt, rowCount * QUERY_LANES);
    },
    /** Scores the first `rowCount` rows against query block `block`, into `out` (8 per row). */
    score(block: number, rowCount: number, dims: number) {
      scores(rowsAt, rowCount, dims, block * queryBytes, outAt);
    },
  };
  return state;
}

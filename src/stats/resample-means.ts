// The bootstrap's resampled means as one WebAssembly loop: per resample, the seeded indices (index-draws.ts's steps)
// and then every column's sum over them, eight columns at a time in four f64x2 lanes, each lane adding its column's
// values in index order from +0 and dividing by n: the very adds and divide of bootstrap.ts's JavaScript loop, so
// the same bits. JavaScript adds one column at a time, each add waiting for the last; here one index load feeds
// eight independent sums (summaries bootstrap 8 columns × 2000 resamples for every row of a sweep).
import { drawLoop } from "../core/index-draws";
import { F64, I32, V128, lazyKernel, op, reserveWasmMemory, type WasmInstance } from "../core/wasm";

const COLUMNS_PER_GROUP = 8;

/** means(groups, n, resamples, data, indices, out): the generator state is read from and stored back at address 0. */
function meansFunction() {
  // params 0 groups 1 n 2 resamples 3 data 4 indices 5 out
  // locals i32 6 state 7 t 8 r 9 i 10 p 11 g 12 base 13 at; f64 14 n as double; v128 15-18 sums 19 n splat
  const { get, set, tee, i32 } = op;
  const b: number[] = [...i32(0), ...op.i32Load(), ...set(6), ...get(1), ...op.f64ConvertI32U, ...set(14)];
  b.push(...get(14), ...op.f64x2Splat, ...set(19), ...get(2), ...set(8));
  b.push(...op.block, ...get(8), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  // the resample's indices (index-draws.ts's steps)
  b.push(...get(4), ...set(10), ...get(1), ...set(9), ...drawLoop({ count: 9, state: 6, t: 7, out: 10, n: 14 }));
  // each group of eight columns: row i of a group is its eight values at base + i * 64
  b.push(...get(3), ...set(12), ...get(0), ...set(11));
  b.push(...op.block, ...get(11), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  for (let lane = 15; lane <= 18; lane++) b.push(...op.v128Zero, ...set(lane));
  b.push(...get(4), ...set(10), ...get(1), ...set(9));
  b.push(...op.block, ...get(9), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  b.push(...get(10), ...op.i32Load(), ...i32(6), ...op.i32Shl, ...get(12), ...op.i32Add, ...set(13));
  for (let pair = 0; pair < 4; pair++) {
    b.push(...get(15 + pair), ...get(13), ...op.v128Load(pair * 16), ...op.f64x2Add, ...set(15 + pair));
  }
  b.push(...get(10), ...i32(4), ...op.i32Add, ...set(10));
  b.push(...get(9), ...i32(1), ...op.i32Sub, ...tee(9), ...op.brIf(0), ...op.end, ...op.end);
  // out[(resample, group)]: the eight means
  for (let pair = 0; pair < 4; pair++) {
    b.push(...get(5), ...get(15 + pair), ...get(19), ...op.f64x2Div, ...op.v128Store(pair * 16));
  }
  b.push(...get(5), ...i32(64), ...op.i32Add, ...set(5));
  b.push(...get(12), ...get(1), ...i32(6), ...op.i32Shl, ...op.i32Add, ...set(12));
  b.push(...get(11), ...i32(1), ...op.i32Sub, ...tee(11), ...op.brIf(0), ...op.end, ...op.end);
  b.push(...get(8), ...i32(1), ...op.i32Sub, ...tee(8), ...op.brIf(0), ...op.end, ...op.end);
  b.push(...i32(0), ...get(6), ...op.i32Store());
  return {
    name: "means",
    params: 6,
    locals: [
      [8, I32],
      [1, F64],
      [5, V128],
    ] as [number, number][],
    body: b,
  };
}

/**
 * Each column's mean over `resamples` seeded resamples of its `n` values (column j's r-th at [j][r]), the stream
 * starting at `seed`; null without WebAssembly.
 */
export const resampledMeansKernel = lazyKernel(() => [meansFunction()], meansOf);

const INDICES_AT = 16;

function meansOf(
  instance: WasmInstance,
): (columns: readonly Float64Array[], n: number, resamples: number, seed: number) => Float64Array[] {
  const { memory } = instance;
  const means = instance.exports.means as (...args: number[]) => void;
  return (columns, n, resamples, seed) => {
    const groups = Math.ceil(columns.length / COLUMNS_PER_GROUP);
    const dataAt = INDICES_AT + Math.ceil((n * 4) / 16) * 16;
    const outAt = dataAt + groups * n * COLUMNS_PER_GROUP * 8;
    reserveWasmMemory(memory, outAt + resamples * groups * COLUMNS_PER_GROUP * 8);
    const data = new Float64Array(memory.buffer, dataAt, groups * n * COLUMNS_PER_GROUP);
    data.fill(0);
    columns.forEach((values, j) => {
      const at = (j >> 3) * n * COLUMNS_PER_GROUP + (j & 7);
      for (let i = 0; i < n; i++) data[at + i * COLUMNS_PER_GROUP] = values[i];
    });
    new Uint32Array(memory.buffer, 0, 1)[0] = seed >>> 0;
    means(groups, n, resamples, dataAt, INDICES_AT, outAt);
    const out = new Float64Array(memory.buffer, outAt, resamples * groups * COLUMNS_PER_GROUP);
    const width = groups * COLUMNS_PER_GROUP;
    return columns.map((_, j) => {
      const column = new Float64Array(resamples);
      for (let r = 0; r < resamples; r++) column[r] = out[r * width + j];
      return column;
    });
  };
}

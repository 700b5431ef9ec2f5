// The lsa fit's three matrix products as WebAssembly SIMD kernels. Every output element adds the same products in
// the same order as the JavaScript loop it replaces (sparse.ts multiplyDense, randomized-svd.ts multiplyRowMajor and
// gram), so results are bit-identical; those loops are the fallback without SIMD. Operands go in row blocks, so
// memory stays bounded. Calls in one event-loop turn share an instance: fresh wasm memory pays a page fault per page
// (110 MB filled 8 times: 4.3 s of CPU; reused: 0.55 s).
import {
  compileWasm,
  I32,
  op,
  reserveWasmMemory,
  V128,
  wasmModule,
  type CompiledWasm,
  type WasmInstance,
} from "../core/wasm";
import type { CsrMatrix } from "./types";

const { get, set, tee, i32 } = op;
const add = (local: number, bytes: number[]) => [...get(local), ...bytes, ...op.i32Add, ...set(local)];
const addConst = (local: number, value: number) => add(local, i32(value));
const decrementLoop = (local: number) => [...get(local), ...i32(1), ...op.i32Sub, ...tee(local), ...op.brIf(0)];
const splat = (address: number[]) => [...address, ...op.f64Load(), ...op.f64x2Splat];
/** Each kernel's locals: `i32s` i32 counters and pointers, then four v128 values. */
const locals = (i32s: number) => Array.of<[number, number]>([i32s, I32], [4, V128]);
const mulAdd = (v: number, pointer: number) => [...get(v), ...get(pointer), ...op.v128Load(), ...op.f64x2Mul];

/**
 * rowMajor(left, rows, inner, right, colPairs, out): out row i += Σ over groups of four j of
 * (((a0·R[j] + a1·R[j+1]) + a2·R[j+2]) + a3·R[j+3]), then out += a·R[j] for each leftover non-zero a.
 */
function rowMajorFunction() {
  // params 0 left 1 rows 2 inner 3 right 4 colPairs 5 out; i32 6 rowBytes 7 j 8 c 9 lp 10 rp 11 o 12-15 r0-r3;
  // v128 16-19 a0-a3
  const b: number[] = [...get(4), ...i32(4), ...op.i32Shl, ...set(6), ...get(0), ...set(9)];
  b.push(...op.block, ...get(1), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  b.push(...get(2), ...set(7), ...get(3), ...set(10));
  b.push(...op.block, ...op.loop, ...get(7), ...i32(4), ...op.i32LtS, ...op.brIf(1));
  for (let k = 0; k < 4; k++) b.push(...splat([...get(9), ...i32(8 * k), ...op.i32Add]), ...set(16 + k));
  b.push(...get(10), ...set(12));
  for (let k = 1; k < 4; k++) b.push(...get(11 + k), ...get(6), ...op.i32Add, ...set(12 + k));
  b.push(...get(5), ...set(11), ...get(4), ...set(8), ...op.loop);
  b.push(...get(11), ...get(11), ...op.v128Load(), ...mulAdd(16, 12));
  for (let k = 1; k < 4; k++) b.push(...mulAdd(16 + k, 12 + k), ...op.f64x2Add);
  b.push(...op.f64x2Add, ...op.v128Store());
  for (const local of [11, 12, 13, 14, 15]) b.push(...addConst(local, 16));
  b.push(...decrementLoop(8), ...op.end);
  b.push(...addConst(9, 32), ...add(10, [...get(6), ...i32(2), ...op.i32Shl]), ...addConst(7, -4), ...op.br(0));
  b.push(...op.end, ...op.end);
  // leftover j: skipped when a is 0, as addScaledRow does
  b.push(...op.block, ...op.loop, ...get(7), ...op.i32Eqz, ...op.brIf(1));
  b.push(...op.block, ...get(9), ...op.f64Load(), ...op.f64Const(0), ...op.f64Eq, ...op.brIf(0));
  b.push(...splat(get(9)), ...set(16), ...get(5), ...set(11), ...get(10), ...set(12), ...get(4), ...set(8));
  b.push(...op.loop, ...get(11), ...get(11), ...op.v128Load(), ...mulAdd(16, 12), ...op.f64x2Add, ...op.v128Store());
  b.push(...addConst(11, 16), ...addConst(12, 16), ...decrementLoop(8), ...op.end, ...op.end);
  b.push(...addConst(9, 8), ...add(10, get(6)), ...addConst(7, -1), ...op.br(0), ...op.end, ...op.end);
  b.push(...add(5, get(6)), ...decrementLoop(1), ...op.end, ...op.end);
  return { name: "rowMajor", params: 6, locals: locals(10), body: b };
}

/**
 * csr(rowStart, colIndex, values, rows, dense, colPairs, out): out row i = ((((out + v0·D[c0]) + v1·D[c1]) +
 * v2·D[c2]) + v3·D[c3]) per group of four non-zeros, then out + v·D[c] for each leftover one.
 */
function csrFunction() {
  // params 0 rowStart 1 colIndex 2 values 3 rows 4 dense 5 colPairs 6 out; i32 7 rowBytes 8 n 9 c 10 o 11-14 d0-d3;
  // v128 15-18 v0-v3
  const densePointer = (offset: number) => [...get(4), ...get(1), ...op.i32Load(offset), ...get(7), ...op.i32Mul];
  const b: number[] = [...get(5), ...i32(4), ...op.i32Shl, ...set(7)];
  b.push(...op.block, ...get(3), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  b.push(...get(0), ...op.i32Load(4), ...get(0), ...op.i32Load(), ...op.i32Sub, ...set(8), ...addConst(0, 4));
  b.push(...op.block, ...op.loop, ...get(8), ...i32(4), ...op.i32LtS, ...op.brIf(1));
  for (let k = 0; k < 4; k++) b.push(...splat([...get(2), ...i32(8 * k), ...op.i32Add]), ...set(15 + k));
  for (let k = 0; k < 4; k++) b.push(...densePointer(4 * k), ...op.i32Add, ...set(11 + k));
  b.push(...get(6), ...set(10), ...get(5), ...set(9), ...op.loop, ...get(10), ...get(10), ...op.v128Load());
  for (let k = 0; k < 4; k++) b.push(...mulAdd(15 + k, 11 + k), ...op.f64x2Add);
  b.push(...op.v128Store());
  for (const local of [10, 11, 12, 13, 14]) b.push(...addConst(local, 16));
  b.push(...decrementLoop(9), ...op.end);
  b.push(...addConst(1, 16), ...addConst(2, 32), ...addConst(8, -4), ...op.br(0), ...op.end, ...op.end);
  b.push(...op.block, ...op.loop, ...get(8), ...op.i32Eqz, ...op.brIf(1));
  b.push(...splat(get(2)), ...set(15), ...densePointer(0), ...op.i32Add, ...set(11));
  b.push(...get(6), ...set(10), ...get(5), ...set(9), ...op.loop, ...get(10), ...get(10), ...op.v128Load());
  b.push(...mulAdd(15, 11), ...op.f64x2Add, ...op.v128Store(), ...addConst(10, 16), ...addConst(11, 16));
  b.push(...decrementLoop(9), ...op.end);
  b.push(...addConst(1, 4), ...addConst(2, 8), ...addConst(8, -1), ...op.br(0), ...op.end, ...op.end);
  b.push(...add(6, get(7)), ...decrementLoop(3), ...op.end, ...op.end);
  return { name: "csr", params: 7, locals: locals(8), body: b };
}

/**
 * gram(y, groups, width, rowBytes, g): for each group of four rows y0..y3 and each a < width, g[a][b] +=
 * ((y0[a]·y0[b] + y1[a]·y1[b]) + y2[a]·y2[b]) + y3[a]·y3[b] for b from a in pairs (the pair past the last column
 * lands in padding or in the lower triangle, which gram fills from the upper one afterwards).
 */
function gramFunction() {
  // params 0 y 1 groups 2 width 3 rowBytes 4 g; i32 5 a 6 pairs 7 o 8-11 t0-t3; v128 12-15 y0-y3
  const b: number[] = [...op.block, ...get(1), ...op.i32Eqz, ...op.brIf(0), ...op.loop, ...i32(0), ...set(5)];
  b.push(...op.loop, ...get(0), ...get(5), ...i32(3), ...op.i32Shl, ...op.i32Add, ...set(8));
  for (let k = 1; k < 4; k++) b.push(...get(7 + k), ...get(3), ...op.i32Add, ...set(8 + k));
  for (let k = 0; k < 4; k++) b.push(...splat(get(8 + k)), ...set(12 + k));
  b.push(...get(4), ...get(5), ...get(3), ...op.i32Mul, ...op.i32Add, ...get(5), ...i32(3), ...op.i32Shl);
  b.push(...op.i32Add, ...set(7));
  b.push(...get(2), ...get(5), ...op.i32Sub, ...i32(1), ...op.i32Add, ...i32(1), ...op.i32ShrU, ...set(6));
  b.push(...op.loop, ...get(7), ...get(7), ...op.v128Load(), ...mulAdd(12, 8));
  for (let k = 1; k < 4; k++) b.push(...mulAdd(12 + k, 8 + k), ...op.f64x2Add);
  b.push(...op.f64x2Add, ...op.v128Store());
  for (const local of [7, 8, 9, 10, 11]) b.push(...addConst(local, 16));
  b.push(...decrementLoop(6), ...op.end);
  b.push(...addConst(5, 1), ...get(5), ...get(2), ...op.i32LtS, ...op.brIf(0), ...op.end);
  b.push(...add(0, [...get(3), ...i32(2), ...op.i32Shl]), ...decrementLoop(1), ...op.end, ...op.end);
  return { name: "gram", params: 5, locals: locals(7), body: b };
}

let compiled: CompiledWasm | null | undefined;
let burst: WasmInstance | undefined;

/** This event-loop turn's instance of the kernels, or null without WebAssembly SIMD. */
function burstInstance(): WasmInstance | null {
  if (compiled === undefined) compiled = compileWasm(wasmModule([rowMajorFunction(), csrFunction(), gramFunction()]));
  if (!compiled) return null;
  if (burst === undefined) {
    burst = compiled.instantiate();
    const release = setImmediate(() => {
      burst = undefined;
    });
    release.unref();
  }
  return burst;
}

/** About 1-2 MB of operand per block, so a block stays in cache. */
const BLOCK_ROWS = 512;
const even = (n: number) => n + (n % 2);
const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** `rows` rows of `from` into `to`; rows start every `fromStride` / `toStride` values, the smaller being the width. */
function copyRows(from: Float64Array, fromStride: number, to: Float64Array, toStride: number, rows: number) {
  const cols = Math.min(fromStride, toStride);
  if (fromStride === cols && toStride === cols) to.set(from.subarray(0, rows * cols));
  else for (let r = 0; r < rows; r++) to.set(from.subarray(r * fromStride, r * fromStride + cols), r * toStride);
}

/** `multiplyRowMajor` (randomized-svd.ts) in the kernel, or null without WebAssembly SIMD. */
export function rowMajorProductWasm(
  left: Float64Array,
  rows: number,
  inner: number,
  right: Float64Array,
  cols: number,
): Float64Array | null {
  const instance = cols === 0 || rows === 0 ? null : burstInstance();
  if (!instance) return null;
  const { memory, exports } = instance;
  const run = exports.rowMajor as (l: number, n: number, i: number, r: number, p: number, o: number) => void;
  const stride = even(cols);
  const block = Math.min(BLOCK_ROWS, rows);
  const rightAt = 0;
  const leftAt = align16(inner * stride * 8);
  const outAt = leftAt + align16(block * inner * 8);
  reserveWasmMemory(memory, outAt + block * stride * 8);
  copyRows(right, cols, new Float64Array(memory.buffer, rightAt, inner * stride), stride, inner);
  const leftView = new Float64Array(memory.buffer, leftAt, block * inner);
  const outView = new Float64Array(memory.buffer, outAt, block * stride);
  const out = new Float64Array(rows * cols);
  for (let from = 0; from < rows; from += block) {
    const n = Math.min(block, rows - from);
    leftView.set(left.subarray(from * inner, (from + n) * inner));
    outView.fill(0);
    run(leftAt, n, inner, rightAt, stride / 2, outAt);
    copyRows(outView, stride, out.subarray(from * cols), cols, n);
  }
  return out;
}

/** `multiplyDense` (sparse.ts) in the kernel, or null without WebAssembly SIMD. */
export function csrProductWasm(a: CsrMatrix, dense: Float64Array, width: number): Float64Array | null {
  // Copying all of `dense` in pays only when the product reads each of its rows once on average (not for a query).
  const instance = width === 0 || a.rows === 0 || a.colIndex.length < a.cols ? null : burstInstance();
  if (!instance) return null;
  const { memory, exports } = instance;
  const run = exports.csr as (s: number, c: number, v: number, n: number, d: number, p: number, o: number) => void;
  const stride = even(width);
  const block = Math.min(BLOCK_ROWS * 4, a.rows);
  let most = 0;
  for (let from = 0; from < a.rows; from += block) {
    const to = Math.min(a.rows, from + block);
    most = Math.max(most, a.rowStart[to] - a.rowStart[from]);
  }
  const denseAt = 0;
  const outAt = align16(a.cols * stride * 8);
  const startAt = outAt + block * stride * 8;
  const valuesAt = align16(startAt + (block + 1) * 4);
  const columnsAt = valuesAt + most * 8;
  reserveWasmMemory(memory, columnsAt + most * 4);
  copyRows(dense, width, new Float64Array(memory.buffer, denseAt, a.cols * stride), stride, a.cols);
  const outView = new Float64Array(memory.buffer, outAt, block * stride);
  const startView = new Int32Array(memory.buffer, startAt, block + 1);
  const valuesView = new Float64Array(memory.buffer, valuesAt, most);
  const columnsView = new Int32Array(memory.buffer, columnsAt, most);
  const out = new Float64Array(a.rows * width);
  for (let from = 0; from < a.rows; from += block) {
    const n = Math.min(block, a.rows - from);
    const first = a.rowStart[from];
    for (let r = 0; r <= n; r++) startView[r] = a.rowStart[from + r] - first;
    valuesView.set(a.values.subarray(first, a.rowStart[from + n]));
    columnsView.set(a.colIndex.subarray(first, a.rowStart[from + n]));
    outView.fill(0);
    run(startAt, columnsAt, valuesAt, n, denseAt, stride / 2, outAt);
    copyRows(outView, stride, out.subarray(from * width), width, n);
  }
  return out;
}

/** The four-row groups of `gram` (randomized-svd.ts), upper triangle only, or null without WebAssembly SIMD. */
export function gramGroupsWasm(y: Float64Array, rows: number, width: number): Float64Array | null {
  const groups = Math.floor(rows / 4);
  const instance = width === 0 || groups === 0 ? null : burstInstance();
  if (!instance) return null;
  const { memory, exports } = instance;
  const run = exports.gram as (y: number, groups: number, width: number, rowBytes: number, g: number) => void;
  const stride = even(width);
  const block = Math.min(BLOCK_ROWS, groups * 4);
  const gAt = 0;
  const yAt = align16((stride + 1) * stride * 8);
  // The pair past a row's last column reads up to two values beyond the block: padding.
  reserveWasmMemory(memory, yAt + (block * stride + 2) * 8);
  // g accumulates: a shared instance holds an earlier call's numbers there.
  new Float64Array(memory.buffer, gAt, (stride + 1) * stride).fill(0);
  const yView = new Float64Array(memory.buffer, yAt, block * stride);
  for (let from = 0; from < groups * 4; from += block) {
    const n = Math.min(block, groups * 4 - from);
    copyRows(y.subarray(from * width, (from + n) * width), width, yView, stride, n);
    run(yAt, n / 4, width, stride * 8, gAt);
  }
  const padded = new Float64Array(memory.buffer, gAt, stride * stride);
  const g = new Float64Array(width * width);
  for (let a = 0; a < width; a++) g.set(padded.subarray(a * stride + a, a * stride + width), a * width + a);
  return g;
}

// The inner loop of exact dense search as a tiny WebAssembly function. A score is a dot product of Float32 values
// summed in doubles, dimension by dimension from 0, exactly as `score += matrix[i] * q[d]` adds it in JavaScript;
// WebAssembly's f64x2 lanes do the same IEEE double multiply and add, two queries per instruction, so every score
// is bit-identical to the JavaScript sum while the loop runs several times faster (no bounds checks, no scalar
// float32 -> double conversion per query, two lanes per operation). There is no library for this: the module is 200
// bytes, assembled below with its instructions spelled out.

/** Queries scored together per call (four f64x2 lanes). */
export const QUERY_LANES = 8;

/** What this file needs of the WebAssembly API (lib.es2022 does not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

const PAGE = 65536;

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}
const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
const name = (text: string): number[] => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

// Opcodes (WebAssembly core 2.0 and its fixed-width SIMD proposal, in Node since 16.4).
const I32 = 0x7f;
const V128 = 0x7b;
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const i32Const = (value: number) => [0x41, ...sleb(value)];
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_EQZ = 0x45;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const brIf = (depth: number) => [0x0d, depth];
const F32_LOAD = [0x2a, 2, 0]; // align 4, offset 0
const F64_PROMOTE_F32 = 0xbb;
const simd = (op: number) => [0xfd, ...uleb(op)];
const v128Load = (offset: number) => [...simd(0x00), 3, ...uleb(offset)];
const v128Store = (offset: number) => [...simd(0x0b), 3, ...uleb(offset)];
const V128_ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const F64X2_SPLAT = simd(0x14);
const F64X2_ADD = simd(0xf0);
const F64X2_MUL = simd(0xf2);

function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/**
 * `scores(rowsPtr, rows, dims, queriesPtr, outPtr)`: for each of `rows` Float32 rows of `dims` values (row-major at
 * rowsPtr), the dot products with 8 queries stored interleaved as doubles (q[d * 8 + b] at queriesPtr), written as
 * 8 doubles per row at outPtr. Each lane adds its products in dimension order starting from +0. dims must be >= 1.
 */
function moduleBytes(): Uint8Array {
  // params: 0 row pointer (advances), 1 rows left, 2 dims, 3 queries, 4 out pointer (advances)
  // locals: 5 dims left, 6 query pointer, 7-10 the four f64x2 sums, 11 the row value splatted
  const body: number[] = [];
  body.push(...BLOCK, ...get(1), I32_EQZ, ...brIf(0));
  body.push(...LOOP);
  for (let s = 7; s <= 10; s++) body.push(...V128_ZERO, ...set(s));
  body.push(...get(3), ...set(6), ...get(2), ...set(5));
  body.push(...LOOP);
  body.push(...get(0), ...F32_LOAD, F64_PROMOTE_F32, ...F64X2_SPLAT, ...set(11));
  for (let lane = 0; lane < 4; lane++) {
    const sum = 7 + lane;
    body.push(...get(sum), ...get(11), ...get(6), ...v128Load(16 * lane), ...F64X2_MUL, ...F64X2_ADD, ...set(sum));
  }
  body.push(...get(0), ...i32Const(4), I32_ADD, ...set(0));
  body.push(...get(6), ...i32Const(8 * QUERY_LANES), I32_ADD, ...set(6));
  body.push(...get(5), ...i32Const(1), I32_SUB, ...tee(5), ...brIf(0), END);
  for (let lane = 0; lane < 4; lane++) body.push(...get(4), ...get(7 + lane), ...v128Store(16 * lane));
  body.push(...get(4), ...i32Const(8 * QUERY_LANES), I32_ADD, ...set(4));
  body.push(...get(1), ...i32Const(1), I32_SUB, ...tee(1), ...brIf(0), END);
  body.push(END, END);
  const code = [
    ...vector([
      [2, I32],
      [5, V128],
    ]),
    ...body,
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector([[0x60, 5, I32, I32, I32, I32, I32, 0]])), // type: (i32 x5) -> ()
    ...section(3, vector([[0]])), // one function of that type
    ...section(5, vector([[0x00, 1]])), // memory, 1 page to start
    ...section(
      7,
      vector([
        [...name("memory"), 0x02, 0],
        [...name("scores"), 0x00, 0],
      ]),
    ),
    ...section(10, vector([[...uleb(code.length), ...code]])),
  ]);
}

/** The instantiated kernel and its memory, or null where WebAssembly SIMD is unavailable. */
export interface ScoreKernel {
  /** Views of the module's memory, laid out as [queries | rows | out], large enough for the last `reserve`. */
  queries: Float64Array;
  rows: Float32Array;
  out: Float64Array;
  /** Makes room for `queryBlocks` blocks of 8 interleaved queries, `rowCount` rows and their scores, of `dims`. */
  reserve(queryBlocks: number, rowCount: number, dims: number): void;
  /** Scores `rowCount` rows (from the start of `rows`) against query block `block`, into `out` (8 per row). */
  score(block: number, rowCount: number, dims: number): void;
}

let kernel: ScoreKernel | null | undefined;

/** The WebAssembly kernel of this thread (built once), or null when this runtime cannot run it. */
export function scoreKernel(): ScoreKernel | null {
  if (kernel !== undefined) return kernel;
  kernel = null;
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  const bytes = moduleBytes();
  if (!wasm || !wasm.validate(bytes)) return kernel;
  const exports = new wasm.Instance(new wasm.Module(bytes), {}).exports;
  const memory = exports.memory as WasmMemory;
  const scores = exports.scores as (rows: number, count: number, dims: number, queries: number, out: number) => void;
  let rowsAt = 0;
  let outAt = 0;
  let queryBytes = 0;
  const state: ScoreKernel = {
    queries: new Float64Array(0),
    rows: new Float32Array(0),
    out: new Float64Array(0),
    reserve(queryBlocks, rowCount, dims) {
      queryBytes = dims * QUERY_LANES * 8;
      rowsAt = queryBlocks * queryBytes;
      outAt = rowsAt + Math.ceil((rowCount * dims * 4) / 16) * 16;
      const end = outAt + rowCount * QUERY_LANES * 8;
      const have = memory.buffer.byteLength;
      if (end > have) memory.grow(Math.ceil((end - have) / PAGE));
      state.queries = new Float64Array(memory.buffer, 0, rowsAt / 8);
      state.rows = new Float32Array(memory.buffer, rowsAt, rowCount * dims);
      state.out = new Float64Array(memory.buffer, outAt, rowCount * QUERY_LANES);
    },
    score(block, rowCount, dims) {
      scores(rowsAt, rowCount, dims, block * queryBytes, outAt);
    },
  };
  kernel = state;
  return kernel;
}

// WebAssembly as bytes for seamlab's few small numeric kernels: each does the very multiplies and adds, in the same
// order, as the JavaScript loop it replaces, so results are bit-identical. A toolchain would add a build step for a
// few hundred bytes.

/** What seamlab needs of the WebAssembly API (lib.es2022 does not declare it). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

export const WASM_PAGE = 65536;

export function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

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

const vector = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const section = (id: number, bytes: number[]): number[] => [id, ...uleb(bytes.length), ...bytes];
const name = (text: string): number[] => [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];

// Value types and instructions (WebAssembly 2.0 with fixed-width SIMD, in Node since 16.4).
export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;
export const op = {
  get: (local: number) => [0x20, ...uleb(local)],
  set: (local: number) => [0x21, ...uleb(local)],
  tee: (local: number) => [0x22, ...uleb(local)],
  i32: (value: number) => [0x41, ...sleb(value)],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  i32ShrU: [0x76],
  i32Or: [0x72],
  i32Xor: [0x73],
  i32Store: (offset = 0) => [0x36, 2, ...uleb(offset)],
  i32TruncF64S: [0xaa],
  f64ConvertI32U: [0xb8],
  f64Mul: [0xa2],
  f64Floor: [0x9c],
  f64Const: (value: number) => [0x44, ...new Uint8Array(Float64Array.of(value).buffer)],
  i32Eqz: [0x45],
  i32LtS: [0x48],
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  i32Load: (offset = 0) => [0x28, 2, ...uleb(offset)],
  f32Load: (offset = 0) => [0x2a, 2, ...uleb(offset)],
  f64Load: (offset = 0) => [0x2b, 3, ...uleb(offset)],
  f64PromoteF32: [0xbb],
  f64Eq: [0x61],
  v128Load: (offset = 0) => [0xfd, 0x00, 3, ...uleb(offset)],
  v128Store: (offset = 0) => [0xfd, 0x0b, 3, ...uleb(offset)],
  v128Zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  f64x2Splat: [0xfd, 0x14],
  f64x2Add: [0xfd, ...uleb(0xf0)],
  f64x2Mul: [0xfd, ...uleb(0xf2)],
  f64x2Div: [0xfd, ...uleb(0xf3)],
};

export interface WasmFunction {
  name: string;
  /** Parameter count (all i32). */
  params: number;
  /** Extra locals by type, in order after the parameters, e.g. [[3, I32], [4, V128]]. */
  locals: [number, number][];
  body: number[];
}

/** A module exporting `memory` (one page to start) and the given functions, each (i32...) -> (). */
export function wasmModule(functions: readonly WasmFunction[]): Uint8Array {
  const types = functions.map((f) => [0x60, ...uleb(f.params), ...new Array<number>(f.params).fill(I32), 0]);
  const codes = functions.map((f) => {
    const code = [...vector(f.locals.map(([count, type]) => [...uleb(count), type])), ...f.body, ...op.end];
    return [...uleb(code.length), ...code];
  });
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vector(types)),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(5, vector([[0x00, 1]])),
    ...section(
      7,
      vector([[...name("memory"), 0x02, 0], ...functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])]),
    ),
    ...section(10, vector(codes)),
  ]);
}

/** A compiled module; each instance has its own memory. */
export interface CompiledWasm {
  instantiate(): WasmInstance;
}

export function compileWasm(bytes: Uint8Array): CompiledWasm | null {
  const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm || !wasm.validate(bytes)) return null;
  const module = new wasm.Module(bytes);
  return {
    instantiate() {
      const exports = new wasm.Instance(module, {}).exports;
      return { memory: exports.memory as WasmMemory, exports };
    },
  };
}

export function reserveWasmMemory(memory: WasmMemory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
}

export interface WasmInstance {
  memory: WasmMemory;
  exports: Record<string, unknown>;
}

/** A kernel built once per thread on first use (`wrap` gives its API), or null without WebAssembly (SIMD). */
export function lazyKernel<T>(functions: () => WasmFunction[], wrap: (instance: WasmInstance) => T): () => T | null {
  let kernel: T | null | undefined;
  return () => {
    if (kernel === undefined) {
      const compiled = compileWasm(wasmModule(functions()));
      kernel = compiled ? wrap(compiled.instantiate()) : null;
    }
    return kernel;
  };
}

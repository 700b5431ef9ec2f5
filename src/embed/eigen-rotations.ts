// symmetric-eigen.ts's Givens rotation of two eigenvector rows as a WebAssembly SIMD loop: each element gets
// s·a + c·h and c·a − s·h, the very multiplies, add and subtract of the JavaScript loop, two elements at a time, so
// the same bits. The rows live in the kernel's memory for the whole decomposition (`matrix`), so a rotation is one
// call: about n² of them per decomposition, each over n elements.
import { V128, lazyKernel, op, reserveWasmMemory, type WasmInstance } from "../core/wasm";

/** rotate(a, b, pairs): rows at byte offsets a and b, c and s read from addresses 0 and 8. */
function rotateFunction() {
  // params 0 a 1 b 2 pairs; v128 3 c 4 s 5 x (row a) 6 h (row b)
  const { get, set, tee, i32 } = op;
  const b: number[] = [...i32(0), ...op.f64Load(), ...op.f64x2Splat, ...set(3)];
  b.push(...i32(8), ...op.f64Load(), ...op.f64x2Splat, ...set(4));
  b.push(...op.block, ...get(2), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  b.push(...get(0), ...op.v128Load(), ...set(5), ...get(1), ...op.v128Load(), ...set(6));
  // b = s·a + c·h, then a = c·a − s·h (a read before either store)
  b.push(...get(1), ...get(4), ...get(5), ...op.f64x2Mul, ...get(3), ...get(6), ...op.f64x2Mul, ...op.f64x2Add);
  b.push(...op.v128Store());
  b.push(...get(0), ...get(3), ...get(5), ...op.f64x2Mul, ...get(4), ...get(6), ...op.f64x2Mul, ...op.f64x2Sub);
  b.push(...op.v128Store());
  b.push(...get(0), ...i32(16), ...op.i32Add, ...set(0), ...get(1), ...i32(16), ...op.i32Add, ...set(1));
  b.push(...get(2), ...i32(1), ...op.i32Sub, ...tee(2), ...op.brIf(0), ...op.end, ...op.end);
  return { name: "rotate", params: 3, locals: [[4, V128]] as [number, number][], body: b };
}

export interface EigenRotations {
  /** An n × n matrix in the kernel's memory (valid until the next `matrix` call). */
  matrix(n: number): Float64Array;
  /** Rows r and r + 1 of the last `matrix`: row r+1 = s·row r + c·row r+1 and row r = c·row r − s·row r+1. */
  rotate(r: number, c: number, s: number): void;
}

const MATRIX_AT = 16;

/** The kernel of this thread, or null without WebAssembly SIMD (the JavaScript loop then rotates). */
export const eigenRotations = lazyKernel(() => [rotateFunction()], rotationsOf);

function rotationsOf(instance: WasmInstance): EigenRotations {
  const { memory } = instance;
  const rotate = instance.exports.rotate as (a: number, b: number, pairs: number) => void;
  let V = new Float64Array(0);
  let n = 0;
  let scalars = new Float64Array(memory.buffer, 0, 2);
  return {
    matrix(size) {
      reserveWasmMemory(memory, MATRIX_AT + size * size * 8);
      n = size;
      V = new Float64Array(memory.buffer, MATRIX_AT, size * size);
      V.fill(0);
      scalars = new Float64Array(memory.buffer, 0, 2);
      return V;
    },
    rotate(r, c, s) {
      scalars[0] = c;
      scalars[1] = s;
      const a = MATRIX_AT + r * n * 8;
      rotate(a, a + n * 8, n >> 1);
      if (n & 1) {
        const k = n - 1;
        const h = V[(r + 1) * n + k];
        V[(r + 1) * n + k] = s * V[r * n + k] + c * h;
        V[r * n + k] = c * V[r * n + k] - s * h;
      }
    },
  };
}

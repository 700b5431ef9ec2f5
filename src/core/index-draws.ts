// random.ts seededIndexFiller as a WebAssembly loop: the same integer steps and floor, so the same indices, much
// cheaper (a sweep's decisions and the elbow simulation draw hundreds of millions of them).
import { F64, I32, lazyKernel, op, reserveWasmMemory, type WasmInstance } from "./wasm";

/** draw(count, n, out): the generator state is read from and stored back at address 0. */
function drawFunction() {
  // params 0 count 1 n 2 out; locals i32 3 state 4 t; f64 5 n as double
  const { get, set, tee, i32 } = op;
  const b: number[] = [...i32(0), ...op.i32Load(), ...set(3), ...get(1), ...op.f64ConvertI32U, ...set(5)];
  b.push(...op.block, ...get(0), ...op.i32Eqz, ...op.brIf(0), ...op.loop);
  b.push(...get(3), ...i32(0x6d2b79f5), ...op.i32Add, ...tee(3), ...set(4));
  // t = imul(t ^ (t >>> 15), t | 1)
  b.push(...get(4), ...get(4), ...i32(15), ...op.i32ShrU, ...op.i32Xor, ...get(4), ...i32(1), ...op.i32Or);
  b.push(...op.i32Mul, ...set(4));
  // t ^= t + imul(t ^ (t >>> 7), t | 61)
  b.push(...get(4), ...get(4), ...get(4), ...get(4), ...i32(7), ...op.i32ShrU, ...op.i32Xor, ...get(4), ...i32(61));
  b.push(...op.i32Or, ...op.i32Mul, ...op.i32Add, ...op.i32Xor, ...set(4));
  // out = floor(((t ^ (t >>> 14)) >>> 0) / 2^32 * n)
  b.push(...get(2), ...get(4), ...get(4), ...i32(14), ...op.i32ShrU, ...op.i32Xor, ...op.f64ConvertI32U);
  // × 2^-32 is exactly ÷ 2^32 (a power of two), without the divide
  b.push(...op.f64Const(2 ** -32), ...op.f64Mul, ...get(5), ...op.f64Mul, ...op.f64Floor, ...op.i32TruncF64S);
  b.push(...op.i32Store(), ...get(2), ...i32(4), ...op.i32Add, ...set(2));
  b.push(...get(0), ...i32(1), ...op.i32Sub, ...tee(0), ...op.brIf(0), ...op.end, ...op.end);
  b.push(...i32(0), ...get(3), ...op.i32Store());
  return {
    name: "draw",
    params: 3,
    locals: [
      [2, I32],
      [1, F64],
    ] as [number, number][],
    body: b,
  };
}

/** Fills `out` with the next indices of the stream in `state` and returns the state after them; null without wasm. */
export const indexDrawKernel = lazyKernel(() => [drawFunction()], drawsOf);

const OUT_AT = 16;

function drawsOf(instance: WasmInstance): (state: number, out: Int32Array, n: number) => number {
  const { memory } = instance;
  const draw = instance.exports.draw as (count: number, n: number, out: number) => void;
  return (state, out, n) => {
    reserveWasmMemory(memory, OUT_AT + out.length * 4);
    const head = new Uint32Array(memory.buffer, 0, 1);
    head[0] = state;
    draw(out.length, n, OUT_AT);
    out.set(new Int32Array(memory.buffer, OUT_AT, out.length));
    return new Uint32Array(memory.buffer, 0, 1)[0];
  };
}

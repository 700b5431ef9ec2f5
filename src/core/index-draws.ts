// random.ts seededIndexFiller as a WebAssembly loop: the same integer steps and floor, so the same indices, much
// cheaper (a sweep's decisions and the elbow simulation draw hundreds of millions of them).
import { F64, I32, lazyKernel, op, reserveWasmMemory, type WasmInstance } from "./wasm";

/**
 * A loop drawing local `count` indices (counted down to 0) of the stream in local `state` (scratch `t`) into the i32s
 * from the address in local `out` (left past them): random.ts's integer steps, then floor(t / 2^32 × `n`, f64 local).
 */
export function drawLoop(local: { count: number; state: number; t: number; out: number; n: number }): number[] {
  const { get, set, tee, i32 } = op;
  const { count, state, t, out, n } = local;
  const b: number[] = [...op.block, ...get(count), ...op.i32Eqz, ...op.brIf(0), ...op.loop];
  b.push(...get(state), ...i32(0x6d2b79f5), ...op.i32Add, ...tee(state), ...set(t));
  // t = imul(t ^ (t >>> 15), t | 1)
  b.push(...get(t), ...get(t), ...i32(15), ...op.i32ShrU, ...op.i32Xor, ...get(t), ...i32(1), ...op.i32Or);
  b.push(...op.i32Mul, ...set(t));
  // t ^= t + imul(t ^ (t >>> 7), t | 61)
  b.push(...get(t), ...get(t), ...get(t), ...get(t), ...i32(7), ...op.i32ShrU, ...op.i32Xor, ...get(t), ...i32(61));
  b.push(...op.i32Or, ...op.i32Mul, ...op.i32Add, ...op.i32Xor, ...set(t));
  // out = floor(((t ^ (t >>> 14)) >>> 0) / 2^32 * n); × 2^-32 is exactly ÷ 2^32 (a power of two), without the divide
  b.push(...get(out), ...get(t), ...get(t), ...i32(14), ...op.i32ShrU, ...op.i32Xor, ...op.f64ConvertI32U);
  b.push(...op.f64Const(2 ** -32), ...op.f64Mul, ...get(n), ...op.f64Mul, ...op.f64Floor, ...op.i32TruncF64S);
  b.push(...op.i32Store(), ...get(out), ...i32(4), ...op.i32Add, ...set(out));
  b.push(...get(count), ...i32(1), ...op.i32Sub, ...tee(count), ...op.brIf(0), ...op.end, ...op.end);
  return b;
}

/** draw(count, n, out): the generator state is read from and stored back at address 0. */
function drawFunction() {
  // params 0 count 1 n 2 out; locals i32 3 state 4 t; f64 5 n as double
  const { get, set, i32 } = op;
  const b: number[] = [...i32(0), ...op.i32Load(), ...set(3), ...get(1), ...op.f64ConvertI32U, ...set(5)];
  b.push(...drawLoop({ count: 0, state: 3, t: 4, out: 2, n: 5 }), ...i32(0), ...get(3), ...op.i32Store());
  const locals: [number, number][] = [
    [2, I32],
    [1, F64],
  ];
  return { name: "draw", params: 3, locals, body: b };
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

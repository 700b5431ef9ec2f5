// Exact cosine top-k over a million vectors held in one Float32Array (what `dense` retrieval does in memory):
// time per query scanning alone and in blocks of 8 (searchDenseMany), and the process's peak RSS.
// Vectors are seeded random unit vectors (timing only: the scan costs the same whatever the values).
//
// Usage: npm run bench:topk [-- --count 1000000 --dims 384 --queries 16]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { seededRandom } from "../src/core/random";
import { searchDense, searchDenseMany, type DenseIndex } from "../src/retrieval/dense";

const { values } = parseArgs({
  options: { count: { type: "string" }, dims: { type: "string" }, queries: { type: "string" } },
});
const count = Number(values.count ?? 1_000_000);
const dims = Number(values.dims ?? 384);
const queryCount = Number(values.queries ?? 16);

const random = seededRandom(1);
const gaussianish = () => random() + random() + random() - 1.5;
const t0 = performance.now();
const matrix = new Float32Array(count * dims);
for (let row = 0; row < count; row++) {
  let norm = 0;
  const base = row * dims;
  for (let d = 0; d < dims; d++) {
    const v = gaussianish();
    matrix[base + d] = v;
    norm += v * v;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let d = 0; d < dims; d++) matrix[base + d] *= inv;
}
const index: DenseIndex = { count, dimensions: dims, matrix };
const buildSeconds = (performance.now() - t0) / 1000;
const queries = Array.from({ length: queryCount }, () => Float32Array.from({ length: dims }, gaussianish));

let t = performance.now();
const single = queries.map((q) => searchDense(index, q, 10));
const singleMs = (performance.now() - t) / queryCount;
t = performance.now();
const blocked = searchDenseMany(index, queries, 10);
const blockedMs = (performance.now() - t) / queryCount;
const same = JSON.stringify(single) === JSON.stringify(blocked);

const gb = (bytes: number) => (bytes / 2 ** 30).toFixed(2);
process.stdout.write(
  [
    `exact top-10 over ${count.toLocaleString("en-US")} × ${dims} float32 vectors (${gb(matrix.byteLength)} GB matrix; generated in ${buildSeconds.toFixed(1)} s)`,
    `one query at a time: ${singleMs.toFixed(0)} ms per query; blocks of 8: ${blockedMs.toFixed(0)} ms per query (${(singleMs / blockedMs).toFixed(2)}x); identical results: ${same ? "yes" : "NO"}`,
    `peak RSS ${gb(process.resourceUsage().maxRSS * 1024)} GB; load average ${loadavg()[0].toFixed(1)} (shared machine: read the ratio, not the absolute times)`,
  ].join("\n") + "\n",
);
if (!same) process.exitCode = 1;

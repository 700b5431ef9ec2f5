import { test } from "node:test";
import assert from "node:assert/strict";
import type { Query } from "../../src/core/types";
import {
  exposedVerdict,
  MIN_EXPOSED_QUERIES,
  queryExposure,
  sweepExposures,
  type SizeExposure,
} from "../../src/experiment/exposure";
import { sweepCurves } from "../../src/experiment/sweep";
import { costedRow } from "../helpers/costed-row";
import type { ResultCache } from "../../src/experiment/cache";

const q = (id: string, start: number, end: number, doc = "d"): Query => ({ id, text: id, gold: [{ doc, start, end }] });
const doc = { id: "d", text: "abcdefghijklmnopqrstuvwxyz0123" };
// window 10/0 cuts at 10 and 20; window 10/5 also at 5, 15, 25 (see test/measure/exposure.test.ts)
const queries = [q("A", 0, 8), q("B", 12, 18), q("D", 21, 24), q("E", 8, 12)];
const config = (overlap: number) => ({ splitter: "window", size: 10, overlap, unit: "chars" as const });

test("exposure over the swept configs is the union of the spans each one cuts", async () => {
  assert.deepEqual([...(await queryExposure([doc], queries, [config(0)]))], [0, 0, 0, 1]);
  assert.deepEqual([...(await queryExposure([doc], queries, [config(0), config(5)]))], [1, 1, 0, 1]);
  assert.deepEqual([...(await queryExposure([doc, { id: "other", text: "x" }], queries, []))], [0, 0, 0, 0]);
});

const row = (overlap: number, hits: string, chunks: number) => costedRow(overlap, hits, chunks, { size: 10 });

function memoryCache(): ResultCache & { puts: number } {
  const store = new Map<string, unknown>();
  const cache = {
    dir: "",
    rejected: 0,
    puts: 0,
    get: (key: string) => store.get(key),
    put(key: string, value: unknown) {
      cache.puts++;
      store.set(key, value);
    },
  };
  return cache;
}

test("a sweep's exposure is found once per size and read back from the cache the next time", async () => {
  const rows = [row(0, "1111", 3), row(5, "1111", 5)];
  const curves = sweepCurves(rows, "hitRate");
  const cache = memoryCache();
  const first = await sweepExposures([doc], queries, { curves, rows }, cache);
  assert.equal(first.length, 1);
  assert.deepEqual(
    { ...first[0], flags: [...first[0].flags] },
    {
      splitter: "window",
      size: 10,
      unit: "chars",
      overlaps: [0, 5],
      queries: 4,
      exposed: 3,
      share: 0.75,
      flags: [1, 1, 0, 1],
    },
  );
  // a cached entry is used as stored: change the documents and the stored flags still come back
  const again = await sweepExposures([{ id: "d", text: "x".repeat(30) }], queries, { curves, rows }, cache);
  assert.deepEqual([...again[0].flags], [1, 1, 0, 1]);
  assert.equal(cache.puts, 1);
});

// 100 queries, the first 40 exposed. Overlap 0 misses exposed queries 0-19, which overlap 5 hits; both hit the
// same 30 unexposed queries. Over all queries overlap 5 gains 20 points; on the exposed ones, 50.
const exposedHits0 = "0".repeat(20) + "1".repeat(20);
const exposedHits5 = "1".repeat(40);
const unexposedHits = "1".repeat(30) + "0".repeat(30);
const flagsOf = (exposed: number, n = 100) => Uint8Array.from({ length: n }, (_, i) => (i < exposed ? 1 : 0));
const exposure = (flags: Uint8Array): SizeExposure => {
  const exposed = flags.reduce((s, x) => s + x, 0);
  return {
    splitter: "window",
    size: 10,
    unit: "chars",
    overlaps: [0, 5],
    queries: flags.length,
    exposed,
    share: exposed / flags.length,
    flags,
  };
};

test("the exposed verdict decides on the exposed queries with the margin divided by their share", () => {
  const rows = [row(0, exposedHits0 + unexposedHits, 3), row(5, exposedHits5 + unexposedHits, 5)];
  const [curve] = sweepCurves(rows, "hitRate");
  const verdict = exposedVerdict(curve, rows, exposure(flagsOf(40)), { margin: 0.01 });
  assert.equal(verdict.exposed, 40);
  assert.equal(verdict.share, 0.4);
  assert.equal(verdict.exposedMargin, 0.025, "1 point of all queries is 2.5 points of the exposed 40%");
  assert.ok(verdict.decision);
  assert.equal(verdict.decision.queries, 40, "paired on the exposed queries only");
  assert.equal(verdict.decision.best, 1);
  assert.equal(verdict.decision.configs[0].fromBest.diff, 0.5, "50 points on the exposed queries");
  assert.equal(verdict.decision.configs[0].status, "worse");
  assert.equal(verdict.unexposedFlips, 0);
});

test("an unexposed query that flips between overlaps is counted, not hidden", () => {
  const moved = "0" + unexposedHits.slice(1);
  const rows = [row(0, exposedHits0 + unexposedHits, 3), row(5, exposedHits5 + moved, 5)];
  const [curve] = sweepCurves(rows, "hitRate");
  assert.equal(exposedVerdict(curve, rows, exposure(flagsOf(40)), {}).unexposedFlips, 1);
});

test("too few exposed queries, or a share within the margin, decide nothing and say which", () => {
  const rows = [row(0, exposedHits0 + unexposedHits, 3), row(5, exposedHits5 + unexposedHits, 5)];
  const [curve] = sweepCurves(rows, "hitRate");
  const few = exposedVerdict(curve, rows, exposure(flagsOf(MIN_EXPOSED_QUERIES - 1)), { margin: 0.01 });
  assert.equal(few.decision, null);
  assert.equal(few.why, "too few exposed queries");
  const withinMargin = exposedVerdict(curve, rows, exposure(flagsOf(40)), { margin: 0.4 });
  assert.equal(withinMargin.decision, null);
  assert.equal(withinMargin.why, "exposed share within the margin");
  assert.equal(exposedVerdict(curve, rows, exposure(flagsOf(40)), { margin: 0.39 }).why, null);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createProgress,
  formatDuration,
  formatProgress,
  etaFromItemTimes,
  formatItemsEta,
} from "../../src/experiment/progress";

test("progress line shows the bar, counts, percent, elapsed and ETA", () => {
  assert.equal(formatProgress(3, 12, 6000, 18000, 12, "sweep"), "sweep [###---------] 3/12 25% 6s ETA 18s");
  assert.equal(formatProgress(12, 12, 61000, 0, 4), "[####] 12/12 100% 1m01s done");
  assert.equal(formatProgress(0, 5, 0, undefined, 5), "[-----] 0/5 0% 0s ETA ?");
  assert.equal(formatDuration(3_725_000), "1h02m");
});

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, columns: 120, writes, write: (t: string) => writes.push(t) };
}

test("progress draws nothing when stderr is not a TTY or when quiet", () => {
  for (const [isTTY, quiet] of [
    [false, false],
    [true, true],
  ] as const) {
    const stream = fakeStream(isTTY);
    const bar = createProgress(3, { stream, quiet });
    bar.tick();
    bar.done();
    assert.equal(bar.enabled, false);
    assert.deepEqual(stream.writes, []);
  }
});

test("progress ETA counts only computed items, not cache hits", () => {
  const stream = fakeStream(true);
  let clock = 0;
  const bar = createProgress(10, { stream, now: () => clock, throttleMs: 0 });
  bar.skip(4); // instant cache hits
  clock = 2000;
  bar.tick(2); // 2 computed in 2 s => 1 s each, 4 left => ETA 4 s
  assert.match(stream.writes[stream.writes.length - 1], /6\/10 60% 2s ETA 4s/);
  bar.done();
  assert.equal(stream.writes[stream.writes.length - 1], "\n");
});

test("the notebooks' ETA spreads each unfinished one's expected time over the jobs", () => {
  // two finished (60 s and 100 s: mean 80 s); three left, one with an earlier run's 200 s; two at a time
  assert.equal(etaFromItemTimes([60_000, 100_000], [200_000, undefined, undefined], 2), (200_000 + 80_000 * 2) / 2);
  // nothing finished and no earlier times: unknown, never a made-up number
  assert.equal(etaFromItemTimes([], [undefined, 5_000], 2), undefined);
  // earlier times alone are enough
  assert.equal(etaFromItemTimes([], [30_000, 30_000], 1), 60_000);
  assert.equal(formatItemsEta(2, 5, 125_000, 90_000, "notebooks"), "2/5 notebooks, 2m05s elapsed, ETA 1m30s");
  assert.equal(formatItemsEta(5, 5, 125_000, 0, "notebooks"), "5/5 notebooks, 2m05s elapsed, done");
  assert.equal(formatItemsEta(0, 5, 1_000, undefined, "notebooks"), "0/5 notebooks, 1s elapsed, ETA ?");
});

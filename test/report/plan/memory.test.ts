// Kernels at once under `--max-memory`: each notebook's kernel estimated from the corpus size and the memory its
// metadata declares, and the fullest work level that fits.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chooseJobs, fullestLevelWithin, kernelBaseBytes, kernelBytes } from "../../../src/report/plan/memory";
import { chooseNotebookWork, workNote } from "../../../src/report/plan/work-levels";
import { costs, declared } from "../../helpers/declared-work";

test("kernels at once: the most whose largest estimates fit the limit; one alone over it is not run", () => {
  const gb = 1024 ** 3;
  const kernels = { "01": 0.5 * gb, "03": 1.5 * gb, "04": 1.2 * gb, "06": 5 * gb };
  const two = chooseJobs({ requested: 2, maxBytes: 4 * gb, reportBytes: 0.2 * gb, kernels });
  assert.equal(two.jobs, 2); // 1.5 + 1.2 + 0.2 <= 4
  assert.deepEqual(two.overLimit, ["06"]);
  assert.match(
    two.line,
    /^max memory 4\.00 GB: 2 notebooks at a time; not run, each kernel alone over the 3\.80 GB left: 06 /,
  );
  const one = chooseJobs({ requested: 3, maxBytes: 2.8 * gb, reportBytes: 0.2 * gb, kernels });
  assert.equal(one.jobs, 1); // 1.5 + 1.2 + 0.2 > 2.8
  assert.match(one.line, /1 notebook at a time \(of --jobs 3\)/);
  // the user's limit holds: a kernel estimated even slightly over what the report process leaves is not run (it
  // once ran at up to 1.25x the room, and the process tree passed --max-memory), one just under it runs alone
  const over = chooseJobs({ requested: 2, maxBytes: 4 * gb, reportBytes: 0.2 * gb, kernels: { "03": 3.85 * gb } });
  assert.deepEqual(over.overLimit, ["03"]);
  assert.match(over.line, /not run, each kernel alone over the 3\.80 GB left: 03 /);
  const under = chooseJobs({ requested: 2, maxBytes: 4 * gb, reportBytes: 0.2 * gb, kernels: { "03": 3.75 * gb } });
  assert.equal(under.jobs, 1);
  assert.deepEqual(under.overLimit, []);
  assert.doesNotMatch(under.line, /not run/);
  const all = chooseJobs({ requested: 2, maxBytes: 64 * gb, reportBytes: 0.2 * gb, kernels });
  assert.equal(all.jobs, 2);
  assert.deepEqual(all.overLimit, []);
});

test("a kernel's estimate grows with the characters it loads, from its base", () => {
  const fixed = declared["03"].kernelFixedBytes;
  assert.equal(kernelBytes(declared, "03", 0), kernelBaseBytes + fixed);
  assert.equal(kernelBytes(declared, "03", 1e9), kernelBaseBytes + fixed + declared["03"].kernelBytesPerChar * 1e9);
  // below 200 M characters each worker thread holds its own copy of the corpus; above, the kernel's thread sweeps
  assert.equal(
    kernelBytes(declared, "03", 1e8, 2),
    Math.round(kernelBaseBytes + fixed + declared["03"].kernelBytesPerChar * 3e8),
  );
  assert.equal(kernelBytes(declared, "03", 1e9, 2), kernelBaseBytes + fixed + declared["03"].kernelBytesPerChar * 1e9);
  // 01 and 02 measure their sample in the kernel's own thread: no copy per worker (their kernels peaked at 1.30 and
  // 1.16 GB on a 148 M-character sample of the 1 GB corpus, which an extra copy estimated at 2.50 GB)
  assert.equal(kernelBytes(declared, "01", 148e6, 1), kernelBytes(declared, "01", 148e6, 0));
  assert.equal(kernelBytes(declared, "02", 148e6, 2), kernelBytes(declared, "02", 148e6));
  assert.ok(
    kernelBytes(declared, "01", 148e6, 1) >= 1.3 * 1024 ** 3 && kernelBytes(declared, "01", 148e6, 1) < 1.6 * 1024 ** 3,
  );
  // the estimates lie at or above the peaks measured at least work on the generated 100 MB and 1 GB corpora (a plain
  // node process's peak plus the 0.34 GB a tslab kernel held more: 03's kernel peaked at 3.14 GB in the 1 GB report)
  const gib = 1024 ** 3;
  const measured: [string, number, number][] = [
    ["03", 100_009_218, 0.67],
    ["03", 1_000_000_000, 2.8],
    ["04", 100_009_218, 1.01],
    ["04", 1_000_000_000, 2.99],
  ];
  for (const [prefix, chars, peak] of measured)
    assert.ok(kernelBytes(declared, prefix, chars) >= (peak + 0.34) * gib, `${prefix} at ${chars} characters`);
  // a notebook the table does not know counts as the largest
  assert.equal(
    kernelBytes(declared, "99", 1e6),
    kernelBaseBytes + Math.max(...Object.values(declared).map((w) => w.kernelBytesPerChar)) * 1e6,
  );
});

test("a level that holds more than the least work (03's dense and query-source sweeps) is kept out when memory is short", () => {
  const chars = 1e9;
  const levels = declared["03"].levels;
  const least = levels.length - 1;
  // no extra memory where neither the dense nor the query-source sweep runs; more where either does
  for (let level = 0; level < levels.length; level++) {
    const heavy = !levels[level].skip.includes("dense") || !levels[level].skip.includes("sources");
    const bytes = kernelBytes(declared, "03", chars, 0, level);
    if (heavy) assert.ok(bytes > kernelBytes(declared, "03", chars), `level ${level} holds more`);
    else assert.equal(bytes, kernelBytes(declared, "03", chars), `level ${level} holds the least work's`);
  }
  const fullestLight = levels.findIndex((l) => l.skip.includes("dense") && l.skip.includes("sources"));
  assert.ok(fullestLight > 0);
  assert.equal(fullestLevelWithin(declared, "03", chars, 0, kernelBytes(declared, "03", chars) + 1e6), fullestLight);
  assert.equal(fullestLevelWithin(declared, "03", chars, 0, 1e15), 0);
  assert.equal(
    fullestLevelWithin(declared, "03", chars, 0, 1e6),
    least,
    "nothing fits: the least (chooseJobs refuses it)",
  );
  assert.equal(fullestLevelWithin(declared, "01", chars, 0, 1e6), 0, "a notebook without levels");
  // with all the time in the world, 03 still stops at the fullest level memory allows, and its page says why
  const plan = chooseNotebookWork({
    declared,
    budgetMs: 1e9,
    prefixes: ["03", "05"],
    jobs: 1,
    costs: costs(1_000),
    fullest: { "03": fullestLight, "05": 1 },
  });
  const n03 = plan.notebooks.find((n) => n.prefix === "03")!;
  assert.equal(n03.level, fullestLight);
  assert.equal(plan.notebooks.find((n) => n.prefix === "05")!.level, 1);
  assert.equal(
    chooseNotebookWork({ declared, budgetMs: 1e9, prefixes: ["03"], jobs: 1, costs: costs(1_000) }).notebooks[0].level,
    0,
  );
  const note = workNote(n03, { budgetMinutes: 14, corpusChars: chars, maxBytes: 4 * 1024 ** 3, memoryLimited: true });
  assert.match(note, /ran less than its full work: .*its fuller work would not fit `--max-memory` \(4\.0 GB\)/);
  assert.match(workNote(n03, { budgetMinutes: 14, corpusChars: chars }), /raise `--budget` for the rest\.$/);
});

// Less work per notebook when the budget is short, planned with the work levels the notebooks declare in their
// metadata: what each level costs, notebooks run jobs at a time, the most work that fits, and what the pages say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { kernelBaseBytes, kernelBytes, memoryNote } from "../../../src/report/plan/memory";
import type { BudgetInput } from "../../../src/report/plan/types";
import {
  chooseNotebookWork,
  notebookMs,
  reservedLeastMs,
  wallMs,
  workLine,
  workNote,
} from "../../../src/report/plan/work-levels";
import { costs, declared } from "../../helpers/declared-work";

const all = ["01", "02", "03", "04", "05", "06", "07"];
/** 45 s per split, 30 s per kernel load, one kernel at a time, 14 minutes. */
const shortBudgetPlan = () =>
  chooseNotebookWork({ declared, budgetMs: 14 * 60_000, prefixes: all, jobs: 1, costs: costs(45_000, 30_000) });

test("notebooks run jobs at a time, never faster than the longest alone", () => {
  // two at a time, each 1.3x slower on busy cores: 240 × 1.3 / 2
  assert.equal(wallMs([60, 60, 60, 60], 2), 156);
  // the longest runs 1.3x slower while the others (20) run beside it: 300 + 0.3 × 20
  assert.equal(wallMs([300, 10, 10], 2), 306);
  // one at a time: the sum, no slowdown
  assert.equal(wallMs([100, 100], 1), 200);
  assert.equal(wallMs([0, 50], 4), 50);
  assert.equal(wallMs([], 2), 0);
});

test("a budget the full work fits keeps every notebook at its full level", () => {
  const plan = chooseNotebookWork({ declared, budgetMs: 60 * 60_000, prefixes: all, jobs: 2, costs: costs(100) });
  assert.ok(plan.fits);
  assert.deepEqual(
    plan.notebooks.map((n) => n.level),
    plan.notebooks.map(() => 0),
  );
  assert.match(workLine(plan, 60, 2), /03 full/);
});

test("a short budget at a large corpus reduces the costly notebooks first and leaves out the last in priority", () => {
  const plan = shortBudgetPlan();
  assert.ok(plan.fits);
  assert.ok(plan.estimatedMs <= 14 * 60_000);
  const level = Object.fromEntries(plan.notebooks.map((n) => [n.prefix, n.level]));
  assert.equal(level["01"], 0);
  assert.ok(level["03"] > 0, "03 runs reduced");
  assert.equal(level["06"], -1, "06 (all or nothing, 9 splits) is left out");
  // what the plan estimates is what its levels cost
  const sum = plan.notebooks.reduce((s, n) => s + notebookMs(declared, n.prefix, n.level, costs(45_000, 30_000)), 0);
  assert.equal(Math.round(plan.estimatedMs), Math.round(sum));
  // no notebook could move one level up (or come back) and still fit
  for (const n of plan.notebooks) {
    if (n.level === 0) continue;
    const up = n.level < 0 ? (declared[n.prefix]?.levels.length ?? 1) - 1 : n.level - 1;
    const more = sum - n.estimatedMs + notebookMs(declared, n.prefix, up, costs(45_000, 30_000));
    assert.ok(more > 14 * 60_000, `${n.prefix} could do more`);
  }
});

test("a notebook left out comes back at its least work before a running one does more", () => {
  // synthetic costs near the 1 GB corpus's, one kernel at a time: every notebook's least work fits 15 minutes (06 and
  // 07 on a document sample, 04 without its dense reranker), and none moves up while another is left out
  const synthetic = {
    splitMs: 18_000,
    queryMs: 27,
    loadMs: 112_000,
    queries: 400,
    fixedMs: { "01": 103_000, "02": 116_000 },
    loadMsOf: { "01": 15_000, "02": 15_000 },
    corpusChars: 1e9,
    sampleLoadMs: (share: number) => 8_000 + 25_000 * (1 + share),
  };
  const plan = chooseNotebookWork({ declared, budgetMs: 15 * 60_000, prefixes: all, jobs: 1, costs: synthetic });
  const level = Object.fromEntries(plan.notebooks.map((n) => [n.prefix, n.level]));
  for (const prefix of ["03", "04", "05", "06", "07"])
    assert.equal(level[prefix], declared[prefix].levels.length - 1, `${prefix} runs at its least work`);
  assert.deepEqual(
    plan.notebooks.filter((n) => n.level >= 0).map((n) => n.prefix),
    ["01", "02", "03", "05", "04", "07", "06"],
  );
  assert.ok(plan.fits && plan.estimatedMs <= 15 * 60_000);
  // without the corpus's size, the sample levels count as the whole corpus: 06 and 07 no longer fit
  const unsized = { ...synthetic, corpusChars: undefined, sampleLoadMs: undefined };
  const without = chooseNotebookWork({ declared, budgetMs: 15 * 60_000, prefixes: all, jobs: 1, costs: unsized });
  assert.deepEqual(
    without.notebooks.filter((n) => n.level < 0).map((n) => n.prefix),
    ["07", "06"],
  );
});

test("when not even the first notebook's least work fits, the plan says it does not fit", () => {
  const plan = chooseNotebookWork({
    declared,
    budgetMs: 60_000,
    prefixes: ["03", "04"],
    jobs: 1,
    costs: costs(45_000),
  });
  assert.equal(plan.fits, false);
  assert.equal(plan.notebooks.find((n) => n.prefix === "04")!.level, -1);
  assert.match(workLine(plan, 1, 1), /does NOT fit/);
});

test("the page note names what ran, the budget and the full version's estimate", () => {
  const plan = shortBudgetPlan();
  const n03 = plan.notebooks.find((n) => n.prefix === "03")!;
  const note = workNote(n03, { budgetMinutes: 14, corpusChars: 1_000_000_000 });
  assert.match(note, /^At this corpus size \(1,000 M characters\), under `--budget 14`, this notebook ran less/);
  assert.match(note, /overlaps [\d, ]+ \(\d of \d\)/);
  assert.match(note, /the full version would take about \d+(\.\d)? min/);
  const n06 = plan.notebooks.find((n) => n.prefix === "06")!;
  assert.match(
    workNote(n06, { budgetMinutes: 14, corpusChars: 1e9 }),
    /was \*\*not run\*\*: even its least work.*--only 06/,
  );
});

test("a notebook left out for memory says so on its page, naming --max-memory", () => {
  const plan = chooseNotebookWork({
    declared,
    budgetMs: 60 * 60_000,
    prefixes: ["03", "06"],
    jobs: 1,
    costs: costs(1_000),
    excluded: ["06"],
  });
  const n06 = plan.notebooks.find((n) => n.prefix === "06")!;
  assert.equal(n06.level, -1);
  assert.equal(plan.notebooks.find((n) => n.prefix === "03")!.level, 0);
  const input = { declared, budgetMinutes: 60, maxBytes: 4 * 1024 ** 3 } as BudgetInput;
  const note = memoryNote({ input, corpusChars: 1e9 }, "06");
  const held = (kernelBytes(declared, "06", 1e9) / 1024 ** 3).toFixed(1).replace(".", "\\.");
  assert.match(note, /^At this corpus size \(1,000 M characters\), under `--budget 60`, this notebook was \*\*not run/);
  assert.match(note, new RegExp(`its kernel would hold about ${held} GB, more than \`--max-memory\` \\(4\\.0 GB\\)`));
  // the plan line names memory, not time, as the reason
  const line = workLine(plan, 60, 1, ["06"]);
  assert.match(line, /06 not run \(its kernel is over --max-memory\)/);
  assert.match(workLine(plan, 60, 1), /06 not run \(full ~/);
});

test("a level reading a document sample costs its share of the corpus and holds only the sample", () => {
  const least06 = declared["06"].levels.length - 1;
  // the sample a level reads is the `documentChars` it injects
  const sampleLevelChars = declared["06"].levels[least06].documentChars!;
  assert.equal(sampleLevelChars, declared["06"].levels[least06].parameters.documentChars);
  assert.ok(sampleLevelChars > 0 && sampleLevelChars < 1e9);
  assert.deepEqual(declared["06"].levels[least06].skip, ["retrieval"], "retrieval indexes the whole corpus");
  assert.deepEqual(declared["07"].levels.at(-1)!.skip, ["sweep"]);
  const corpusChars = 1e9;
  const sampled = {
    ...costs(60_000, 150_000),
    corpusChars,
    sampleLoadMs: (share: number) => 8_000 + 30_000 * (1 + share),
  };
  const share = sampleLevelChars / corpusChars;
  const work = declared["06"].levels[least06];
  assert.equal(
    notebookMs(declared, "06", least06, sampled),
    8_000 + 30_000 * (1 + share) + work.splits * share * 60_000,
  );
  assert.ok(notebookMs(declared, "06", least06, sampled) < notebookMs(declared, "06", 0, sampled) / 10);
  // without the corpus's size the level counts as the whole corpus (never cheaper than it is)
  assert.equal(notebookMs(declared, "06", least06, costs(60_000, 150_000)), 150_000 + work.splits * 60_000);
  // memory: the sample, not the corpus (06 holds 45 bytes a character; the whole 1 GB would be 45 GB)
  assert.equal(
    kernelBytes(declared, "06", corpusChars, 0, least06),
    Math.round(kernelBaseBytes + declared["06"].kernelBytesPerChar * sampleLevelChars),
  );
  assert.equal(
    kernelBytes(declared, "06", corpusChars),
    kernelBytes(declared, "06", corpusChars, 0, least06),
    "least work by default",
  );
  assert.ok(kernelBytes(declared, "06", corpusChars, 0, 0) > 20e9);
  // a corpus smaller than the sample: the whole corpus, once
  assert.equal(
    kernelBytes(declared, "07", 1e6, 2),
    Math.round(kernelBaseBytes + declared["07"].kernelBytesPerChar * 1e6),
  );
});

test("01-02's reserve for the others' least work counts only those that fit, in priority order", () => {
  // 03, 05, 04, 07, 06 at about their 1 GB least work (s) in 684 s: 04 does not fit beside 03 and 05, the rest do
  assert.equal(reservedLeastMs([270, 228, 234, 20, 26], 684), 544);
  assert.equal(reservedLeastMs([270, 228, 234, 20, 26], 10_000), 778, "everything fits");
  assert.equal(reservedLeastMs([700, 20], 684), 20, "the first does not fit at all");
  assert.equal(reservedLeastMs([], 684), 0);
});

// `seamlab report --budget` on a corpus too large for the full report: less work per notebook, fewer kernels at once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  chooseJobs,
  chooseNotebookWork,
  fullestLevelWithin,
  kernelBaseBytes,
  kernelBytes,
  cellTimeoutSeconds,
  notebookTimeLimitMs,
  overrunNote,
  kernelBytesPerChar,
  kernelFixedBytes,
  notebook03Defaults,
  notebook04Defaults,
  notebook05Defaults,
  notebook07Defaults,
  notebookLevels,
  sampleLevelChars,
  notebookMs,
  parseMaxMemory,
  reservedLeastMs,
  spacedSubset,
  wallMs,
  workLine,
  workNote,
} from "../../src/report/budget-work";
import { notebookWorkload } from "../../src/report/budget";

const all = ["01", "02", "03", "04", "05", "06", "07"];
const costs = (splitMs: number, loadMs = 20_000) => ({
  splitMs,
  queryMs: 1,
  loadMs,
  queries: 400,
  fixedMs: { "01": 10_000, "02": 10_000 },
});

test("a sweep with fewer points keeps both ends and spaces the rest", () => {
  assert.deepEqual(spacedSubset([0, 50, 100, 150, 200, 300, 400, 500], 3), [0, 200, 500]);
  assert.deepEqual(spacedSubset([0, 50, 100, 150, 200, 300, 400, 500], 4), [0, 100, 300, 500]);
  assert.deepEqual(spacedSubset([0, 100, 200, 300, 500], 2), [0, 500]);
  assert.deepEqual(spacedSubset([1, 2], 5), [1, 2]);
});

test("each notebook's full level is the workload the query budget already models", () => {
  for (const [prefix, work] of Object.entries(notebookWorkload)) {
    const full = notebookLevels[prefix][0];
    assert.deepEqual({ splits: full.splits, configs: full.configs }, work, prefix);
    assert.deepEqual(full.parameters, {}, `${prefix}: the full level injects nothing`);
  }
  // and every later level does less work than the one before it: no more of either, less of one (a level reading a
  // document sample costs its share of the corpus, checked below)
  for (const [prefix, levels] of Object.entries(notebookLevels))
    for (let i = 1; i < levels.length; i++) {
      const [a, b] = [levels[i - 1], levels[i]];
      if (b.documentChars !== undefined) continue;
      assert.ok(b.splits <= a.splits && b.configs <= a.configs, `${prefix} level ${i}`);
      assert.ok(b.splits < a.splits || b.configs < a.configs, `${prefix} level ${i}`);
    }
});

test("the levels' defaults are the notebooks' own parameters (a changed notebook fails here)", () => {
  const parameters = (name: string) => {
    const nb = JSON.parse(readFileSync(join("notebooks", name), "utf8"));
    const cell = nb.cells.find((c: { metadata: { tags?: string[] } }) => c.metadata.tags?.includes("parameters"));
    return (cell.source as string[]).join("");
  };
  const literal = (values: readonly unknown[]) => JSON.stringify(values).replace(/,/g, ", ");
  const p03 = parameters("03-overlap-sweep.ipynb");
  assert.ok(p03.includes(`const splitter = ${JSON.stringify(notebook03Defaults.splitter)};`), p03);
  assert.ok(p03.includes(`const comparedSplitters = ${literal(notebook03Defaults.comparedSplitters)};`), p03);
  assert.ok(p03.includes(`const overlaps = ${literal(notebook03Defaults.overlaps)};`), p03);
  const p04 = parameters("04-topk-redundancy.ipynb");
  assert.ok(p04.includes(`const overlaps = ${literal(notebook04Defaults.overlaps)};`), p04);
  assert.ok(p04.includes(`const depths = ${literal(notebook04Defaults.depths)};`), p04);
  const p05 = parameters("05-labelled-eval.ipynb");
  for (const c of notebook05Defaults.configs)
    assert.ok(
      p05.includes(`{ splitter: "${c.splitter}", size: ${c.size}, overlap: ${c.overlap} },`),
      `${JSON.stringify(c)} in ${p05}`,
    );
  assert.equal(p05.match(/\{ splitter:/g)?.length, notebook05Defaults.configs.length, p05);
  assert.ok(p05.includes("const compare = [1, 0];"), p05);
  const p07 = parameters("07-document-types.ipynb");
  assert.ok(p07.includes(`const overlaps = ${literal(notebook07Defaults.overlaps)};`), p07);
  assert.ok(p07.includes(`const splitters = ${literal(notebook07Defaults.splitters)};`), p07);
});

test("sections a level leaves out are tagged in the notebook, so the runner can leave them out", () => {
  const tagged = (name: string) => {
    const nb = JSON.parse(readFileSync(join("notebooks", name), "utf8"));
    return new Set(
      nb.cells.flatMap((c: { metadata: { tags?: string[] } }) =>
        (c.metadata.tags ?? []).filter((t) => t.startsWith("budget:")).map((t) => t.slice(7)),
      ),
    );
  };
  const files = Object.fromEntries(readdirSync("notebooks").map((name) => [name.slice(0, 2), name]));
  for (const [prefix, levels] of Object.entries(notebookLevels)) {
    const skipped = new Set(levels.flatMap((l) => l.skip));
    if (skipped.size === 0) continue;
    const tags = tagged(files[prefix]);
    for (const section of skipped) assert.ok(tags.has(section), `${prefix}: no cell tagged budget:${section}`);
  }
});

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
  const plan = chooseNotebookWork({ budgetMs: 60 * 60_000, prefixes: all, jobs: 2, costs: costs(100) });
  assert.ok(plan.fits);
  assert.deepEqual(
    plan.notebooks.map((n) => n.level),
    plan.notebooks.map(() => 0),
  );
  assert.match(workLine(plan, 60, 2), /03 full/);
});

test("a short budget at a large corpus reduces the costly notebooks first and leaves out the last in priority", () => {
  // 45 s per split, 30 s per kernel load, one kernel at a time, 14 minutes
  const plan = chooseNotebookWork({ budgetMs: 14 * 60_000, prefixes: all, jobs: 1, costs: costs(45_000, 30_000) });
  assert.ok(plan.fits);
  assert.ok(plan.estimatedMs <= 14 * 60_000);
  const level = Object.fromEntries(plan.notebooks.map((n) => [n.prefix, n.level]));
  assert.equal(level["01"], 0);
  assert.ok(level["03"] > 0, "03 runs reduced");
  assert.equal(level["06"], -1, "06 (all or nothing, 9 splits) is left out");
  // what the plan estimates is what its levels cost
  const sum = plan.notebooks.reduce((s, n) => s + notebookMs(n.prefix, n.level, costs(45_000, 30_000)), 0);
  assert.equal(Math.round(plan.estimatedMs), Math.round(sum));
  // no notebook could move one level up (or come back) and still fit
  for (const n of plan.notebooks) {
    if (n.level === 0) continue;
    const up = n.level < 0 ? (notebookLevels[n.prefix]?.length ?? 1) - 1 : n.level - 1;
    const more = sum - n.estimatedMs + notebookMs(n.prefix, up, costs(45_000, 30_000));
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
  const plan = chooseNotebookWork({ budgetMs: 15 * 60_000, prefixes: all, jobs: 1, costs: synthetic });
  const level = Object.fromEntries(plan.notebooks.map((n) => [n.prefix, n.level]));
  for (const prefix of ["03", "04", "05", "06", "07"])
    assert.equal(level[prefix], notebookLevels[prefix].length - 1, `${prefix} runs at its least work`);
  assert.deepEqual(
    plan.notebooks.filter((n) => n.level >= 0).map((n) => n.prefix),
    ["01", "02", "03", "05", "04", "07", "06"],
  );
  assert.ok(plan.fits && plan.estimatedMs <= 15 * 60_000);
  // without the corpus's size, the sample levels count as the whole corpus: 06 and 07 no longer fit
  const unsized = { ...synthetic, corpusChars: undefined, sampleLoadMs: undefined };
  const without = chooseNotebookWork({ budgetMs: 15 * 60_000, prefixes: all, jobs: 1, costs: unsized });
  assert.deepEqual(
    without.notebooks.filter((n) => n.level < 0).map((n) => n.prefix),
    ["07", "06"],
  );
});

test("when not even the first notebook's least work fits, the plan says it does not fit", () => {
  const plan = chooseNotebookWork({ budgetMs: 60_000, prefixes: ["03", "04"], jobs: 1, costs: costs(45_000) });
  assert.equal(plan.fits, false);
  assert.equal(plan.notebooks.find((n) => n.prefix === "04")!.level, -1);
  assert.match(workLine(plan, 1, 1), /does NOT fit/);
});

test("the page note names what ran, the budget and the full version's estimate", () => {
  const plan = chooseNotebookWork({ budgetMs: 14 * 60_000, prefixes: all, jobs: 1, costs: costs(45_000, 30_000) });
  const n03 = plan.notebooks.find((n) => n.prefix === "03")!;
  const note = workNote(n03, { budgetMinutes: 14, corpusChars: 1_000_000_000 });
  assert.match(note, /^At this corpus size \(1,000 M characters\), under `--budget 14`, this notebook ran less/);
  assert.match(note, /overlaps [\d, ]+ \(\d of 5\)/);
  assert.match(note, /the full version would take about \d+(\.\d)? min/);
  const n06 = plan.notebooks.find((n) => n.prefix === "06")!;
  assert.match(
    workNote(n06, { budgetMinutes: 14, corpusChars: 1e9 }),
    /was \*\*not run\*\*: even its least work.*--only 06/,
  );
});

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
  const fixed = kernelFixedBytes["03"];
  assert.equal(kernelBytes("03", 0), kernelBaseBytes + fixed);
  assert.equal(kernelBytes("03", 1e9), kernelBaseBytes + fixed + kernelBytesPerChar["03"] * 1e9);
  // below 200 M characters each worker thread holds its own copy of the corpus; above, the kernel's thread sweeps
  assert.equal(kernelBytes("03", 1e8, 2), Math.round(kernelBaseBytes + fixed + kernelBytesPerChar["03"] * 3e8));
  assert.equal(kernelBytes("03", 1e9, 2), kernelBaseBytes + fixed + kernelBytesPerChar["03"] * 1e9);
  // 01 and 02 measure their sample in the kernel's own thread: no copy per worker (their kernels peaked at 1.30 and
  // 1.16 GB on a 148 M-character sample of the 1 GB corpus, which an extra copy estimated at 2.50 GB)
  assert.equal(kernelBytes("01", 148e6, 1), kernelBytes("01", 148e6, 0));
  assert.equal(kernelBytes("02", 148e6, 2), kernelBytes("02", 148e6));
  assert.ok(kernelBytes("01", 148e6, 1) >= 1.3 * 1024 ** 3 && kernelBytes("01", 148e6, 1) < 1.6 * 1024 ** 3);
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
    assert.ok(kernelBytes(prefix, chars) >= (peak + 0.34) * gib, `${prefix} at ${chars} characters`);
  // a notebook the table does not know counts as the largest
  assert.equal(kernelBytes("99", 1e6), kernelBaseBytes + Math.max(...Object.values(kernelBytesPerChar)) * 1e6);
});

test("a notebook left out for memory says so on its page, naming --max-memory", () => {
  const plan = chooseNotebookWork({
    budgetMs: 60 * 60_000,
    prefixes: ["03", "06"],
    jobs: 1,
    costs: costs(1_000),
    excluded: ["06"],
  });
  const n06 = plan.notebooks.find((n) => n.prefix === "06")!;
  assert.equal(n06.level, -1);
  assert.equal(plan.notebooks.find((n) => n.prefix === "03")!.level, 0);
  const note = workNote(n06, {
    budgetMinutes: 60,
    corpusChars: 1e9,
    kernelBytes: 5 * 1024 ** 3,
    maxBytes: 4 * 1024 ** 3,
  });
  assert.match(note, /not run\*\*: its kernel would hold about 5\.0 GB, more than `--max-memory` \(4\.0 GB\)/);
  // the plan line names memory, not time, as the reason
  const line = workLine(plan, 60, 1, ["06"]);
  assert.match(line, /06 not run \(its kernel is over --max-memory\)/);
  assert.match(workLine(plan, 60, 1), /06 not run \(full ~/);
});

test("--max-memory takes gigabytes and names itself when wrong", () => {
  assert.equal(parseMaxMemory("4"), 4 * 1024 ** 3);
  assert.equal(parseMaxMemory(undefined), undefined);
  for (const bad of ["0", "lots", "-1", "2000"]) assert.throws(() => parseMaxMemory(bad), /--max-memory must be/);
});

test("a cell may run as long as a notebook planned at the whole budget may, unless --timeout says otherwise", () => {
  assert.equal(cellTimeoutSeconds(undefined, undefined), 300);
  assert.equal(cellTimeoutSeconds(undefined, 14), 1680, "--budget 14: a notebook planned at 14 min may run 28");
  assert.equal(cellTimeoutSeconds(undefined, 14), notebookTimeLimitMs(14 * 60_000) / 1000);
  assert.equal(cellTimeoutSeconds(undefined, 2), 300, "a short budget keeps the default");
  assert.equal(cellTimeoutSeconds(undefined, 0.5), 300);
  assert.equal(cellTimeoutSeconds(60, 14), 60, "--timeout given wins");
  assert.equal(cellTimeoutSeconds(900, undefined), 900);
});

test("a level that holds more than the least work (03's dense and query-source sweeps) is kept out when memory is short", () => {
  const chars = 1e9;
  const levels = notebookLevels["03"];
  const least = levels.length - 1;
  // no extra memory where neither the dense nor the query-source sweep runs; more where either does
  for (let level = 0; level < levels.length; level++) {
    const heavy = !levels[level].skip.includes("dense") || !levels[level].skip.includes("sources");
    const bytes = kernelBytes("03", chars, 0, level);
    if (heavy) assert.ok(bytes > kernelBytes("03", chars), `level ${level} holds more`);
    else assert.equal(bytes, kernelBytes("03", chars), `level ${level} holds the least work's`);
  }
  const fullestLight = levels.findIndex((l) => l.skip.includes("dense") && l.skip.includes("sources"));
  assert.ok(fullestLight > 0);
  assert.equal(fullestLevelWithin("03", chars, 0, kernelBytes("03", chars) + 1e6), fullestLight);
  assert.equal(fullestLevelWithin("03", chars, 0, 1e15), 0);
  assert.equal(fullestLevelWithin("03", chars, 0, 1e6), least, "nothing fits: the least (chooseJobs refuses it)");
  assert.equal(fullestLevelWithin("01", chars, 0, 1e6), 0, "a notebook without levels");
  // with all the time in the world, 03 still stops at the fullest level memory allows, and its page says why
  const plan = chooseNotebookWork({
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
    chooseNotebookWork({ budgetMs: 1e9, prefixes: ["03"], jobs: 1, costs: costs(1_000) }).notebooks[0].level,
    0,
  );
  const note = workNote(n03, { budgetMinutes: 14, corpusChars: chars, maxBytes: 4 * 1024 ** 3, memoryLimited: true });
  assert.match(note, /ran less than its full work: .*its fuller work would not fit `--max-memory` \(4\.0 GB\)/);
  assert.match(workNote(n03, { budgetMinutes: 14, corpusChars: chars }), /raise `--budget` for the rest\.$/);
});

test("a notebook's time limit under --budget is twice its estimate, and at least 2 minutes over it", () => {
  assert.equal(notebookTimeLimitMs(10 * 60_000), 20 * 60_000);
  assert.equal(notebookTimeLimitMs(60_000), 3 * 60_000, "a 1-minute notebook gets 2 more");
  assert.equal(notebookTimeLimitMs(0), 120_000);
  const note = overrunNote({ prefix: "05", plannedMs: 6 * 60_000, limitMs: 12 * 60_000, budgetMinutes: 14 });
  assert.match(note, /`--budget 14`, this notebook was \*\*stopped\*\* at its time limit of 12\.0 min/);
  assert.match(note, /twice its planned 6\.0 min/);
  assert.match(note, /--only 05/);
});

test("every parameter a level injects is declared in its notebook's parameters cell", () => {
  const files = Object.fromEntries(readdirSync("notebooks").map((name) => [name.slice(0, 2), name]));
  for (const [prefix, levels] of Object.entries(notebookLevels)) {
    const nb = JSON.parse(readFileSync(join("notebooks", files[prefix]), "utf8"));
    const cell = nb.cells.find((c: { metadata: { tags?: string[] } }) => c.metadata.tags?.includes("parameters"));
    const declared = new Set([...(cell.source as string[]).join("").matchAll(/^const (\w+)/gm)].map((m) => m[1]));
    for (const level of levels)
      for (const name of Object.keys(level.parameters)) assert.ok(declared.has(name), `${prefix}: ${name}`);
  }
});

test("a level reading a document sample costs its share of the corpus and holds only the sample", () => {
  const least06 = notebookLevels["06"].length - 1;
  assert.equal(notebookLevels["06"][least06].documentChars, sampleLevelChars);
  assert.deepEqual(notebookLevels["06"][least06].skip, ["retrieval"], "retrieval indexes the whole corpus");
  assert.deepEqual(notebookLevels["07"].at(-1)!.skip, ["sweep"]);
  const corpusChars = 1e9;
  const sampled = {
    ...costs(60_000, 150_000),
    corpusChars,
    sampleLoadMs: (share: number) => 8_000 + 30_000 * (1 + share),
  };
  const share = sampleLevelChars / corpusChars;
  const work = notebookLevels["06"][least06];
  assert.equal(notebookMs("06", least06, sampled), 8_000 + 30_000 * (1 + share) + work.splits * share * 60_000);
  assert.ok(notebookMs("06", least06, sampled) < notebookMs("06", 0, sampled) / 10);
  // without the corpus's size the level counts as the whole corpus (never cheaper than it is)
  assert.equal(notebookMs("06", least06, costs(60_000, 150_000)), 150_000 + work.splits * 60_000);
  // memory: the sample, not the corpus (06 holds 45 bytes a character; the whole 1 GB would be 45 GB)
  assert.equal(
    kernelBytes("06", corpusChars, 0, least06),
    Math.round(kernelBaseBytes + kernelBytesPerChar["06"] * sampleLevelChars),
  );
  assert.equal(kernelBytes("06", corpusChars), kernelBytes("06", corpusChars, 0, least06), "least work by default");
  assert.ok(kernelBytes("06", corpusChars, 0, 0) > 20e9);
  // a corpus smaller than the sample: the whole corpus, once
  assert.equal(kernelBytes("07", 1e6, 2), Math.round(kernelBaseBytes + kernelBytesPerChar["07"] * 1e6));
});

test("01-02's reserve for the others' least work counts only those that fit, in priority order", () => {
  // 03, 05, 04, 07, 06 at about their 1 GB least work (s) in 684 s: 04 does not fit beside 03 and 05, the rest do
  assert.equal(reservedLeastMs([270, 228, 234, 20, 26], 684), 544);
  assert.equal(reservedLeastMs([270, 228, 234, 20, 26], 10_000), 778, "everything fits");
  assert.equal(reservedLeastMs([700, 20], 684), 20, "the first does not fit at all");
  assert.equal(reservedLeastMs([], 684), 0);
});

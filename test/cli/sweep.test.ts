import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sweepWorkers } from "../../src/cli/sweep-flags";
import { loadCorpusAndQueries } from "../../src/retrieval/inputs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "bin", "seamlab.js");
const corpus = join(root, "node_modules", "fastify", "docs", "Guides");
const tempDir = () => mkdtempSync(join(tmpdir(), "seamlab-sweep-cli-"));

function seamlab(args: string[]) {
  const result = spawnSync(process.execPath, [bin, "sweep", ...args], { cwd: root, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const base = ["--corpus", corpus, "--splitter", "window", "--size", "400", "--quiet"];

test("seamlab sweep --json prints one row per overlap, curves and the knee from both methods", () => {
  const dir = tempDir();
  const run = seamlab([...base, "--overlaps", "0,50,100,200", "--json", "--cache-dir", dir, "--workers", "2"]);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.rows.length, 4);
  assert.deepEqual(
    report.rows.map((r: { overlap: number }) => r.overlap),
    [0, 50, 100, 200],
  );
  assert.ok(
    report.rows.every(
      (r: { recallLow: number; recall: number; recallHigh: number }) =>
        r.recallLow <= r.recall && r.recall <= r.recallHigh,
    ),
  );
  assert.equal(report.rows[0].tokensRatio, 1);
  assert.ok("kneedle" in report.knee && "plateau" in report.knee && typeof report.knee.agree === "boolean");
  assert.equal(report.computed, 4);
  const again = JSON.parse(seamlab([...base, "--overlaps", "0,50,100,200", "--json", "--cache-dir", dir]).stdout);
  assert.equal(again.cached, 4);
  assert.deepEqual(again.rows, report.rows);
});

test("seamlab sweep runs the joint overlap x depth grid with an MMR reranker", () => {
  const run = seamlab([
    ...base,
    "--overlaps",
    "0,200",
    "--ks",
    "5,10",
    "--final-k",
    "3",
    "--rerank",
    "mmr",
    "--json",
    "--no-cache",
    "--workers",
    "0",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.rows.length, 4);
  assert.ok(report.rows.every((r: { finalK: number; reranker: string }) => r.finalK === 3 && r.reranker === "mmr"));
  assert.equal(report.curves.length, 2, "one curve per first-stage depth");
});

test("seamlab sweep explains bad options and exits 2", () => {
  const overlap = seamlab([...base, "--overlaps", "0,400", "--no-cache"]);
  assert.equal(overlap.code, 2);
  assert.match(overlap.stderr, /--overlaps 400 is not smaller than --size 400/);
  const finalK = seamlab([...base, "--overlaps", "0,50", "--ks", "5", "--final-k", "8", "--no-cache"]);
  assert.equal(finalK.code, 2);
  assert.match(finalK.stderr, /--final-k 8/);
  const rerank = seamlab([...base, "--overlaps", "0,50", "--rerank", "bogus", "--no-cache"]);
  assert.equal(rerank.code, 2);
  assert.match(rerank.stderr, /unknown reranker "bogus"/);
});

test("seamlab sweep --clear-cache alone empties the cache and exits", () => {
  const dir = tempDir();
  assert.equal(seamlab([...base, "--overlaps", "0,50", "--cache-dir", dir, "--workers", "0"]).code, 0);
  const clear = seamlab(["--clear-cache", "--cache-dir", dir]);
  assert.equal(clear.code, 0);
  // two rows and the seam exposure of their size
  assert.match(clear.stderr, /cleared 3 cached result/);
  assert.equal(existsSync(dir), false);
});

test("Ctrl-C stops a sweep cleanly, and the re-run equals an uninterrupted sweep", async () => {
  const overlaps = Array.from({ length: 12 }, (_, i) => i * 10).join(",");
  const args = [
    "--corpus",
    corpus,
    "--splitter",
    "langchain",
    "--size",
    "200",
    "--overlaps",
    overlaps,
    "--json",
    "--quiet",
  ];
  const dir = tempDir();
  // One worker thread, so the abort goes through the pool; the re-runs below use the main thread.
  const child = spawn(process.execPath, [bin, "sweep", ...args, "--workers", "1", "--cache-dir", dir], { cwd: root });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const entries = () => (existsSync(dir) ? readdirSync(dir).flatMap((s) => readdirSync(join(dir, s))).length : 0);
  while (entries() === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  child.kill("SIGINT");
  const code = await new Promise<number | null>((r) => child.on("close", r));
  assert.equal(code, 130, "interrupted before the sweep finished");
  const partial = JSON.parse(stdout);
  assert.equal(partial.interrupted, true);
  assert.ok(partial.rows.length >= 1 && partial.rows.length < 12);
  for (const shard of readdirSync(dir))
    for (const f of readdirSync(join(dir, shard))) assert.match(f, /^[0-9a-f]{64}\.json$/);
  const resumed = seamlab([...args, "--workers", "0", "--cache-dir", dir]);
  const fresh = seamlab([...args, "--workers", "0", "--cache-dir", tempDir()]);
  assert.equal(resumed.code, 0, resumed.stderr);
  const a = JSON.parse(resumed.stdout);
  const b = JSON.parse(fresh.stdout);
  assert.ok(a.cached >= partial.rows.length);
  assert.deepEqual(a.rows, b.rows);
  assert.deepEqual(a.knee, b.knee);
});

test("seamlab sweep takes several splitters and gives one curve with its own knee per splitter", () => {
  const run = seamlab([
    "--corpus",
    corpus,
    "--splitter",
    "langchain,window",
    "--size",
    "400",
    "--overlaps",
    "0,50,100,200",
    "--json",
    "--quiet",
    "--no-cache",
    "--workers",
    "0",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.deepEqual(
    report.curves.map((c: { splitter: string }) => c.splitter),
    ["langchain", "window"],
  );
  assert.ok(
    report.curves.every(
      (c: { points: unknown[]; knee: { agree: boolean } }) =>
        c.points.length === 4 && typeof c.knee.agree === "boolean",
    ),
  );
  assert.equal(report.rows.length, 8);
});

test("the text table of a two-splitter sweep shows each splitter's own rows", () => {
  const run = seamlab([
    "--corpus",
    corpus,
    "--splitter",
    "langchain,window",
    "--size",
    "400",
    "--overlaps",
    "0,100",
    "--quiet",
    "--no-cache",
    "--workers",
    "0",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const [, langchain, window] = run.stdout.split(/\n(?=\w+ size 400)/);
  // The window splitter repeats exactly 100 chars at every seam: no zero-overlap seams at overlap 100.
  const windowAt100 = window.split("\n").find((line) => /^\s+100\s/.test(line)) as string;
  assert.equal(windowAt100.trim().split(/\s+/)[2], "0.0");
  assert.match(langchain, /^langchain size 400/);
});

test("a dense sweep uses the embedder the flags ask for and names it on each curve", () => {
  const dir = tempDir();
  const run = seamlab([
    ...base,
    "--overlaps",
    "0,100",
    "--retriever",
    "dense",
    "--embed-dims",
    "16",
    "--cache-dir",
    dir,
    "--workers",
    "0",
  ]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /retriever: dense\(lsa-16 \(TF-IDF\+SVD fitted on this corpus; not a neural model\), cosine\)/,
  );
  const bm25 = seamlab([...base, "--overlaps", "0,100", "--cache-dir", dir, "--workers", "0"]);
  assert.match(bm25.stdout, /retriever: bm25\(/);
});

test("seamlab sweep gives each curve a paired verdict at the --margin asked for, and refuses a bad margin", () => {
  const dir = tempDir();
  const args = [...base, "--overlaps", "0,100,200", "--json", "--cache-dir", dir, "--workers", "0"];
  const wide = JSON.parse(seamlab([...args, "--margin", "50"]).stdout);
  const curve = wide.curves[0];
  assert.equal(curve.decision.margin, 0.5);
  assert.equal(curve.decision.configs.length, 3);
  // With a 50-point margin every overlap is within it of the best, so the cheapest (overlap 0) is the verdict.
  assert.equal(curve.decision.verdict, "decided");
  assert.equal(curve.decision.choice, 0);
  assert.match(curve.verdict, /^Use overlap 0: the cheapest setting within 50 points of the best/);
  const text = seamlab([...base, "--overlaps", "0,100,200", "--cache-dir", dir, "--margin", "1"]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /verdict \(hit rate, paired\) on \d+ header queries \(## and ###; \d+ of \d+ headings dropped: [^)]*\): (Use overlap|Undecided|Leaning)/,
  );
  assert.match(text.stdout, /second opinion on the shape: Kneedle/);
  const bad = seamlab([...base, "--overlaps", "0,100", "--margin", "0", "--no-cache"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--margin must be a number above 0 and at most 99 points; got "0"/);
});

test("seamlab sweep --sizes with overlap shares gives a grid verdict, and --groups a per-group breakdown", () => {
  const args = ["--corpus", corpus, "--splitter", "window", "--quiet", "--workers", "0", "--no-cache"];
  const run = seamlab([...args, "--sizes", "200,400", "--overlaps", "0,10%", "--groups", "folder", "--json"]);
  assert.equal(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  type Row = { size: number; overlap: number; contextBudget: number | null };
  const configs = [
    [200, 0],
    [200, 20],
    [400, 0],
    [400, 40],
  ];
  // Plain hit@5 rows, then the same configs at the default equal context budget (200 x 5 = 1000 characters).
  assert.deepEqual(
    report.rows.map((r: Row) => [r.size, r.overlap, r.contextBudget]),
    [...configs.map((c) => [...c, null]), ...configs.map((c) => [...c, 1000])],
  );
  assert.equal(report.grids[0].contextBudget.amount, 1000);
  assert.equal(report.curves.length, 2, "one curve per size");
  assert.equal(report.grids.length, 1);
  assert.equal(report.grids[0].decision.configs.length, 4);
  assert.match(report.grids[0].verdict, /^(Use size \d+, overlap \d+|Undecided|Leaning: size \d+, overlap \d+)/);
  assert.ok(Array.isArray(report.groups) && report.groups.length >= 1);
  const both = seamlab([...args, "--size", "200", "--sizes", "200,400", "--overlaps", "0"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--size and --sizes cannot be used together/);
  const share = seamlab([...args, "--overlaps", "0,abc"]);
  assert.equal(share.code, 2);
  assert.match(share.stderr, /"abc" is neither a whole number nor a share like 10%/);
});

test("seamlab sweep --sample N measures pairs kept and tokens on N documents and says so; by default every one", () => {
  const args = [...base, "--overlaps", "0,100", "--json", "--no-cache", "--workers", "0"];
  const whole = JSON.parse(seamlab(args).stdout);
  assert.equal(whole.documentSample.description, `all ${whole.documentSample.population} documents`);
  assert.ok(whole.rows.every((r: Record<string, unknown>) => !("sample" in r) && !("pairsKeptLow" in r)));
  const run = seamlab([...args, "--sample", "5"]);
  assert.equal(run.code, 0, run.stderr);
  const sampled = JSON.parse(run.stdout);
  assert.equal(sampled.documentSample.documents, 5);
  assert.match(sampled.documentSample.description, /a seeded sample of 5 of \d+ documents/);
  sampled.rows.forEach((row: Record<string, number | string>, i: number) => {
    const full = whole.rows[i];
    assert.equal(row.sample, sampled.documentSample.description);
    assert.equal(row.sampleDocuments, 5);
    // Retrieval and seams cover every document: unchanged by the sample.
    for (const key of ["chunks", "zeroOverlapPct", "hitRate", "recall"]) assert.equal(row[key], full[key], key);
    assert.ok(row.pairsKeptLow <= row.pairsKeptPct && row.pairsKeptPct <= row.pairsKeptHigh);
    assert.ok(row.tokensEmbeddedLow <= row.tokensEmbedded && row.tokensEmbedded <= row.tokensEmbeddedHigh);
  });
  const text = seamlab([...base, "--overlaps", "0,100", "--no-cache", "--workers", "0", "--sample", "5"]).stdout;
  assert.match(text, /pairs kept % and tokens measured on a seeded sample of 5 of \d+ documents/);
});

test("a sweep over a huge corpus computes in this thread unless --workers is given", () => {
  assert.deepEqual(sweepWorkers(undefined, 1000, 2000), { workers: undefined });
  assert.deepEqual(sweepWorkers(2, 5000, 2000), { workers: 2 });
  const huge = sweepWorkers(undefined, 300_000_000);
  assert.equal(huge.workers, 0);
  assert.match(huge.note ?? "", /300 M characters: computing in this thread, .*\(--workers N to override\)/);
});

/** Window chunk boundaries by arithmetic (starts every size - overlap until a chunk reaches the end), not the splitter. */
function windowBoundaries(length: number, size: number, overlap: number): number[] {
  const out: number[] = [];
  for (let start = 0; ; start += size - overlap) {
    const end = Math.min(start + size, length);
    out.push(start, end);
    if (end >= length) return out;
  }
}

test("a sweep names its query source, count and drops in every verdict, and reports the seam exposure of each size", () => {
  const dir = tempDir();
  const args = [...base, "--overlaps", "0,100,200", "--cache-dir", dir, "--workers", "0"];
  const report = JSON.parse(seamlab([...args, "--json"]).stdout);
  assert.match(report.queryLabel, /^\d+ header queries \(## and ###\)$/);
  assert.match(report.queryDrops, /^\d+ of \d+ headings dropped: \d+ with no sentence under the heading/);
  // the exposed queries counted independently: a window boundary strictly inside a gold span at some overlap
  const inputs = loadCorpusAndQueries({ corpus, queries: "headers" });
  const lengths = new Map(inputs.docs.map((d) => [d.id, d.text.length]));
  const expected = inputs.queries.filter((q) =>
    [0, 100, 200].some((overlap) =>
      q.gold.some((g) =>
        windowBoundaries(lengths.get(g.doc) as number, 400, overlap).some((b) => g.start < b && b < g.end),
      ),
    ),
  ).length;
  assert.ok(expected > 0 && expected < inputs.queries.length, `a window at 400 cuts some gold spans, not all`);
  const [exposure] = report.exposure;
  assert.deepEqual(
    { ...exposure, share: undefined },
    {
      splitter: "window",
      size: 400,
      unit: "chars",
      overlaps: [0, 100, 200],
      queries: report.queries,
      exposed: expected,
      share: undefined,
    },
  );
  assert.equal(exposure.share, expected / report.queries);
  const exposed = report.curves[0].exposed;
  assert.equal(exposed.exposed, expected);
  assert.ok(
    Math.abs(exposed.exposedMargin - 0.01 / exposure.share) < 1e-4,
    "the margin over all queries, per exposed share",
  );
  assert.equal(exposed.decision.queries, expected, "the exposed verdict is paired on the exposed queries");
  const text = seamlab(args);
  assert.equal(text.code, 0, text.stderr);
  const source = `${report.queryLabel.slice(0, -1)}; ${report.queryDrops})`;
  assert.ok(text.stdout.split("\n")[0].includes(source), "the first line names the source, its count and drops");
  assert.match(
    text.stdout,
    new RegExp(`overlap can change at most ${(100 * exposure.share).toFixed(1)}% of these ${report.queries} queries`),
  );
  assert.match(
    text.stdout,
    new RegExp(`verdict on the ${expected} exposed queries \\(the 1 point margin over all queries is`),
  );
});

test("--heading-levels picks the heading levels of header queries; --include-h3 means 2,3 and is not given with it", () => {
  const args = [...base, "--overlaps", "0,100", "--json", "--no-cache", "--workers", "0"];
  const byDefault = JSON.parse(seamlab(args).stdout);
  const alias = JSON.parse(seamlab([...args, "--include-h3"]).stdout);
  const h2 = JSON.parse(seamlab([...args, "--heading-levels", "2"]).stdout);
  assert.equal(alias.queries, byDefault.queries);
  assert.deepEqual(byDefault.queriesFrom.levels, [2, 3]);
  assert.deepEqual(h2.queriesFrom.levels, [2]);
  assert.ok(h2.queries < byDefault.queries, `## alone gives fewer queries (${h2.queries} vs ${byDefault.queries})`);
  assert.match(h2.queryLabel, /header queries \(##\)$/);
  const both = seamlab([...args, "--include-h3", "--heading-levels", "2"]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--heading-levels and --include-h3 cannot be used together/);
  const bad = seamlab([...args, "--heading-levels", "1,2"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--heading-levels 1,2: "1" is not a heading level from 2 to 6/);
});

/**
 * Corpus scale: loading and measuring 2,500 vs 5,000 generated files and a 25 MB vs 50 MB single file
 * (window splitter, 1000/200). Each case runs in its own child process so peak RSS belongs to that case.
 * Doubling the corpus should roughly double the time (no quadratic step) and peak RSS should track the
 * corpus size. Run: `npm run bench:corpus`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "../src/core/random";

const WORDS = (
  "the whale ship sea captain harbour rope sail deck crew storm water voyage night morning island " +
  "light wind boat harpoon oil cask mast anchor line chart compass star current tide shore"
).split(" ");

/** Deterministic prose: paragraphs of 1-6 sentences, separated by blank lines. */
function generateProse(chars: number, seed: number): string {
  const random = seededRandom(seed);
  const paragraphs: string[] = [];
  let total = 0;
  while (total < chars) {
    const sentences: string[] = [];
    const count = 1 + Math.floor(random() * 6);
    for (let s = 0; s < count; s++) {
      const words = Array.from(
        { length: 6 + Math.floor(random() * 18) },
        () => WORDS[Math.floor(random() * WORDS.length)],
      );
      const opener = random() < 0.1 ? "This" : words[0][0].toUpperCase() + words[0].slice(1);
      sentences.push([opener, ...words.slice(1)].join(" ") + ".");
    }
    const paragraph = sentences.join(" ");
    paragraphs.push(paragraph);
    total += paragraph.length + 2;
  }
  return paragraphs.join("\n\n").slice(0, chars);
}

interface CaseResult {
  label: string;
  files: number;
  chars: number;
  loadMs: number;
  splitMs: number;
  measureMs: number;
  chunks: number;
  zeroOverlapSeams: number;
  pairsKeptPct: number;
  baselineRssMb: number;
  peakRssMb: number;
}

async function measureCase(spec: string, label: string): Promise<CaseResult> {
  const { loadCorpus } = await import("../src/corpus/load");
  const { splitCorpus } = await import("../src/splitters/registry");
  const { measureSplit } = await import("../src/measure/summary");
  const { measureSeamDamage } = await import("../src/measure/pairs");
  const baselineRssMb = process.resourceUsage().maxRSS / 1024;
  let t = performance.now();
  const corpus = loadCorpus(spec);
  const loadMs = performance.now() - t;
  t = performance.now();
  const config = { splitter: "window", size: 1000, overlap: 200 };
  const chunks = splitCorpus(corpus.docs, config);
  const splitMs = performance.now() - t;
  t = performance.now();
  const { summary } = measureSplit(corpus.docs, chunks, { nominalOverlap: 200, limit: 1000 });
  const damage = measureSeamDamage(corpus.docs, chunks);
  const measureMs = performance.now() - t;
  return {
    label,
    files: corpus.files,
    chars: summary.chars,
    loadMs,
    splitMs,
    measureMs,
    chunks: summary.chunks,
    zeroOverlapSeams: summary.zeroOverlapSeams,
    pairsKeptPct: damage.keptPct,
    baselineRssMb,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function runChild(spec: string, label: string): CaseResult {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ["--import", "tsx", self, "--case", spec, label], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`case ${label} failed:\n${child.stderr}`);
  return JSON.parse(child.stdout.trim().split("\n").pop()!);
}

function writeManyFiles(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const folder = join(dir, `part${String(Math.floor(i / 500)).padStart(2, "0")}`);
    if (i % 500 === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, `doc${String(i).padStart(5, "0")}.md`),
      `# Doc ${i}\n\n` + generateProse(1500 + (i % 7) * 500, i),
    );
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--case") {
    process.stdout.write(JSON.stringify(await measureCase(args[1], args[2])) + "\n");
    return;
  }
  const root = mkdtempSync(join(tmpdir(), "seamlab-bench-corpus-"));
  try {
    console.log(`generating corpora in ${root} ...`);
    writeManyFiles(join(root, "files-2500"), 2500);
    writeManyFiles(join(root, "files-5000"), 5000);
    writeFileSync(join(root, "single-25mb.md"), generateProse(25_000_000, 1));
    writeFileSync(join(root, "single-50mb.md"), generateProse(50_000_000, 2));
    const cases: [string, string][] = [
      [join(root, "files-2500"), "2,500 files"],
      [join(root, "files-5000"), "5,000 files"],
      [join(root, "single-25mb.md"), "one 25 MB file"],
      [join(root, "single-50mb.md"), "one 50 MB file"],
    ];
    const results = cases.map(([spec, label]) => runChild(spec, label));
    const pad = (s: string, n: number) => s.padStart(n);
    console.log(
      [
        "case".padEnd(16),
        pad("files", 6),
        pad("M chars", 8),
        pad("load s", 7),
        pad("split s", 8),
        pad("measure s", 10),
        pad("chunks", 8),
        pad("zero", 5),
        pad("base MB", 8),
        pad("peak MB", 8),
        pad("peak/char B", 12),
      ].join(" "),
    );
    for (const r of results) {
      console.log(
        [
          r.label.padEnd(16),
          pad(String(r.files), 6),
          pad((r.chars / 1e6).toFixed(1), 8),
          pad((r.loadMs / 1000).toFixed(2), 7),
          pad((r.splitMs / 1000).toFixed(2), 8),
          pad((r.measureMs / 1000).toFixed(2), 10),
          pad(String(r.chunks), 8),
          pad(String(r.zeroOverlapSeams), 5),
          pad(r.baselineRssMb.toFixed(0), 8),
          pad(r.peakRssMb.toFixed(0), 8),
          pad((((r.peakRssMb - r.baselineRssMb) * 1024 * 1024) / r.chars).toFixed(1), 12),
        ].join(" "),
      );
    }
    const total = (r: CaseResult) => r.loadMs + r.splitMs + r.measureMs;
    console.log(
      `files: 2x corpus -> ${(total(results[1]) / total(results[0])).toFixed(2)}x time, ${(results[1].peakRssMb / results[0].peakRssMb).toFixed(2)}x peak RSS`,
    );
    console.log(
      `single file: 2x corpus -> ${(total(results[3]) / total(results[2])).toFixed(2)}x time, ${(results[3].peakRssMb / results[2].peakRssMb).toFixed(2)}x peak RSS`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();

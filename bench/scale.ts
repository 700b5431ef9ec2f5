// bench:scale — time and peak RSS of `seamlab seams`, `seamlab sweep` (6 overlaps, header queries) and, with
// --report, the whole report, on corpora of growing size, and the growth exponent between sizes (1 = linear).
//
// The corpora are GENERATED for timing (say so when quoting the numbers): markdown documents of 2–40 KB, each a
// title and `##` sections of seeded sentences over a 2,000-word vocabulary, written under /tmp (never into the
// repo), plus the real fastify-docs markdown from npm copied in once so real structure is present. Generated text
// has no meaning; the numbers it gives are for cost, not for any recommendation.
//
// Usage: npm run bench:scale [-- --sizes 10,100 (MB; 1000 = 1 GB: mind other users of the machine)] [--report]
//        [--keep] (keep the generated corpora under /tmp/seamlab-scale-*)
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { seededRandom } from "../src/core/random";
import { resolvePackageRoot } from "../src/corpus/load";
import { projectRoot } from "../src/core/project";

const { values } = parseArgs({
  options: { sizes: { type: "string" }, report: { type: "boolean" }, keep: { type: "boolean" } },
});
const sizesMb = (values.sizes ?? "10,100").split(",").map(Number);
const root = projectRoot();

function vocabulary(seed: number): string[] {
  const random = seededRandom(seed);
  const letters = "etaoinshrdlucmfwypvbgkqjxz";
  return Array.from({ length: 2000 }, () => {
    const length = 2 + Math.floor(random() * random() * 10);
    let word = "";
    for (let i = 0; i < length; i++) word += letters[Math.floor(random() * random() * letters.length)];
    return word;
  });
}

/** Writes `megabytes` of generated markdown (plus fastify's docs) into a fresh folder; returns it. */
function generateCorpus(megabytes: number): string {
  const dir = join(tmpdir(), `seamlab-scale-${megabytes}mb`);
  if (existsSync(join(dir, ".complete"))) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(resolvePackageRoot("fastify", root, "bench:scale"), "docs"), join(dir, "fastify-docs"), {
    recursive: true,
  });
  const words = vocabulary(7);
  const random = seededRandom(megabytes);
  const pick = () => words[Math.floor(random() * random() * words.length)];
  const sentence = () => {
    const n = 6 + Math.floor(random() * 20);
    const body = Array.from({ length: n }, pick).join(" ");
    return body[0].toUpperCase() + body.slice(1) + (random() < 0.1 ? "?" : ".");
  };
  let written = 0;
  for (let doc = 0; written < megabytes * 1_000_000; doc++) {
    const folder = join(dir, `part-${String(Math.floor(doc / 500)).padStart(4, "0")}`);
    if (doc % 500 === 0) mkdirSync(folder, { recursive: true });
    const target = 2_000 + Math.floor(random() * random() * 38_000);
    const parts = [`# ${sentence().slice(0, 40)}\n`];
    let length = parts[0].length;
    while (length < target) {
      const heading = `## ${Array.from({ length: 2 + Math.floor(random() * 5) }, pick).join(" ")}\n`;
      const paragraphs = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 6) }, sentence).join(" "),
      );
      const section = `\n${heading}\n${paragraphs.join("\n\n")}\n`;
      parts.push(section);
      length += section.length;
    }
    const text = parts.join("");
    writeFileSync(join(folder, `doc-${doc}.md`), text);
    written += text.length;
  }
  writeFileSync(join(dir, ".complete"), "");
  return dir;
}

interface Timing {
  seconds: number;
  peakMb: number;
  ok: boolean;
}

function timed(args: string[], label: string): Timing {
  const stats = join(tmpdir(), `seamlab-scale-${process.pid}.time`);
  process.stderr.write(`scale: ${label} (load average ${loadavg()[0].toFixed(1)})\n`);
  const run = spawnSync("/usr/bin/time", ["-f", "%e %M", "-o", stats, ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const [seconds, kb] = readFileSync(stats, "utf8").trim().split(/\s+/).slice(-2).map(Number);
  rmSync(stats, { force: true });
  return { seconds, peakMb: kb / 1024, ok: run.status === 0 };
}

const seamlab = [process.execPath, join(root, "bin", "seamlab.js")];
const rows: { mb: number; stage: string; timing: Timing }[] = [];
for (const mb of sizesMb) {
  const corpus = generateCorpus(mb);
  rows.push({
    mb,
    stage: "seams",
    timing: timed([...seamlab, "seams", "--corpus", corpus, "--splitter", "recursive", "--json"], `seams ${mb} MB`),
  });
  rows.push({
    mb,
    stage: "sweep",
    timing: timed(
      [...seamlab, "sweep", "--corpus", corpus, "--splitter", "recursive", "--overlaps", "0,50,100,200,300,400"].concat(
        ["--no-cache", "--quiet", "--json"],
      ),
      `sweep ${mb} MB`,
    ),
  });
  if (values.report) {
    const out = join(tmpdir(), `seamlab-scale-report-${mb}mb`);
    rows.push({
      mb,
      stage: "report",
      timing: timed([...seamlab, "report", "--corpus", corpus, "--out", out, "--force"], `report ${mb} MB`),
    });
    rmSync(out, { recursive: true, force: true });
  }
  if (!values.keep) rmSync(corpus, { recursive: true, force: true });
}

const lines = ["corpus (generated markdown + fastify-docs)   stage    wall s   peak RSS MB   growth exponent"];
for (const row of rows) {
  const previous = rows.filter((r) => r.stage === row.stage && r.mb < row.mb).pop();
  const exponent = previous
    ? (Math.log(row.timing.seconds / previous.timing.seconds) / Math.log(row.mb / previous.mb)).toFixed(2)
    : "-";
  lines.push(
    `${`${row.mb} MB`.padEnd(44)} ${row.stage.padEnd(7)} ${row.timing.seconds.toFixed(1).padStart(7)}   ${row.timing.peakMb
      .toFixed(0)
      .padStart(11)}   ${exponent.padStart(5)}${row.timing.ok ? "" : "  FAILED"}`,
  );
}
lines.push(
  `growth exponent: log(time ratio) / log(size ratio) against the next smaller size (1 = linear). Load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" / ")} on ${availableParallelism()} cores: the machine is shared, so wall times are noisy.`,
);
process.stdout.write(lines.join("\n") + "\n");
if (rows.some((r) => !r.timing.ok)) process.exitCode = 1;

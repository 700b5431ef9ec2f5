import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seededRandom } from "../../src/core/random";
import type { Doc } from "../../src/core/types";
import { chromaCsv } from "../../src/corpus/write-labelled";
import { buildFactsCorpus } from "../../scripts/facts-corpus";
import { seamlab } from "./spawn-cli";

const WORDS = (
  "river stone lantern harbor meadow signal copper window garden market orbit ribbon canyon ember shadow thunder " +
  "violet pillar compass beacon glacier harvest marble anchor falcon quarry tunnel velvet willow zephyr"
).split(" ");

/** Four markdown pages of `##` sections of seeded prose, with 30 synthetic facts and their questions. */
function factsFolder(headings = true): { dir: string; corpus: string; csv: string } {
  const random = seededRandom(7);
  const word = () => WORDS[Math.floor(random() * WORDS.length)];
  const sentence = () => {
    const words = Array.from({ length: 10 + Math.floor(random() * 10) }, word).join(" ");
    return words.charAt(0).toUpperCase() + words.slice(1) + ".";
  };
  const docs: Doc[] = Array.from({ length: 4 }, (_, d) => {
    const sections = Array.from({ length: 4 }, (_, s) => {
      const paragraphs = Array.from({ length: 3 }, () => Array.from({ length: 4 }, sentence).join(" "));
      return `${headings ? "## " : ""}Part ${d}.${s} ${word()} ${word()}\n\n${paragraphs.join("\n\n")}\n`;
    });
    return { id: `page${d}.md`, text: `${headings ? "## " : ""}Page ${d}\n\n${sections.join("\n")}` };
  });
  const set = buildFactsCorpus(
    docs.map((doc) => (headings ? doc : { ...doc, text: `## Intro\n\n${doc.text}` })),
    { count: 30, seed: 3 },
  );
  const dir = mkdtempSync(join(tmpdir(), "seamlab-proxies-"));
  const corpus = join(dir, "corpus");
  mkdirSync(corpus);
  // without headings: the one `## Intro` line the generator needed is dropped again (offsets shift by its length)
  const drop = headings ? 0 : "## Intro\n\n".length;
  const written = set.docs.map((doc) => ({ ...doc, text: doc.text.slice(drop) }));
  for (const doc of written) writeFileSync(join(corpus, doc.id), doc.text);
  const queries = set.queries.map((q) => ({
    ...q,
    gold: q.gold.map((g) => ({ ...g, start: g.start - drop, end: g.end - drop })),
  }));
  const csv = join(dir, "labelled.csv");
  writeFileSync(csv, chromaCsv(queries, written));
  return { dir, corpus, csv };
}

const grid = ["--splitter", "recursive", "--size", "300", "--overlaps", "0,100,200"];

test("proxies checks header and ICT queries against the labelled questions and names the rule it trusts by", () => {
  const { dir, corpus, csv } = factsFolder();
  try {
    const text = seamlab(["proxies", "--corpus", corpus, "--queries", csv, ...grid, "--ict-n", "40"]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /Proxies against 30 labelled queries \(labelled\.csv\)/);
    assert.match(text.stdout, /^headers +\d+ /m);
    assert.match(text.stdout, /^ict +40 /m);
    assert.match(text.stdout, /Rule: A proxy is trusted to set the overlap when/);
    const json = seamlab(["proxies", "--corpus", corpus, "--queries", csv, ...grid, "--ict-n", "40", "--json"]);
    assert.equal(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as {
      proxies: {
        source: string;
        comparison: { tau: number | null; curves: { labelledSet: number[]; labelledPick: number; inSet: boolean }[] };
      }[];
      trust: { trusted: string | null };
    };
    assert.deepEqual(
      parsed.proxies.map((p) => p.source),
      ["headers", "ict"],
    );
    for (const p of parsed.proxies) {
      const c = p.comparison.curves[0];
      // the labelled pick is never ruled out by its own verdict
      assert.ok(c.labelledSet.includes(c.labelledPick), JSON.stringify(c));
      if (p.comparison.tau !== null) assert.ok(Math.abs(p.comparison.tau) <= 1);
    }
    assert.ok(parsed.trust.trusted === null || ["headers", "ict"].includes(parsed.trust.trusted));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("proxies on a corpus without headings says headers are not available, and still checks ICT", () => {
  const { dir, corpus, csv } = factsFolder(false);
  try {
    const text = seamlab(["proxies", "--corpus", corpus, "--queries", csv, ...grid, "--ict-n", "40"]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^headers +0 .*not available/m);
    assert.match(text.stdout, /^ict +40 /m);
    assert.match(text.stdout, /Not available: headers\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("proxies refuses a proxy as --queries, one overlap, and an overlap not below the size, before any work", () => {
  const cases: [string[], RegExp][] = [
    [["--queries", "ict"], /--queries must name your labelled questions .*not "ict"/],
    [["--queries", "x.csv", "--overlaps", "100"], /--overlaps must list at least two overlaps/],
    [["--queries", "x.csv", "--size", "100", "--overlaps", "0,100"], /--overlaps 100 is not smaller than --size 100/],
    [["--queries", "x.csv", "--splitter", "nope"], /nope/],
  ];
  for (const [args, message] of cases) {
    const result = seamlab(["proxies", ...args]);
    assert.equal(result.status, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.match(result.stderr, message);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  }
});

// `seamlab types`, structural damage in `seams`/`compare-splitters`, the structure splitter's flags and
// `sweep --by-type`, through the real CLI on a small hand-made markdown corpus.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
let dir = "";

function seamlab(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, [join(root, "bin/seamlab.js"), ...args], { cwd: root, encoding: "utf8" });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function assertUserError(result: ReturnType<typeof seamlab>, pattern: RegExp): void {
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
}

const code =
  "```js\n" + Array.from({ length: 12 }, (_, i) => `app.get('/route${i}', handler${i})`).join("\n") + "\n```\n";
const page = (n: number) =>
  `# Page ${n}\n\n## Routing in part ${n}\n\nRoutes map a method and a path to a handler, and this page explains how they do it.\n\n${code}\n` +
  `## Why routes in part ${n}?\n\nBecause every request needs exactly one handler.\n`;

before(() => {
  dir = mkdtempSync(join(tmpdir(), "seamlab-structure-cli-"));
  mkdirSync(join(dir, "docs"));
  for (let i = 0; i < 6; i++) writeFileSync(join(dir, `docs/p${i}.md`), page(i));
  writeFileSync(join(dir, "types.txt"), "# all prose\n**/p0.md prose\n");
  writeFileSync(join(dir, "bad-types.txt"), "\n**/p0.md poetry\n");
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("types prints the breakdown by type, the rules, and applies a --types file", () => {
  const corpus = join(dir, "docs");
  const json = JSON.parse(seamlab("types", "--corpus", corpus, "--json").stdout);
  const byType = Object.fromEntries(json.types.map((r: { type: string; sections: number }) => [r.type, r.sections]));
  assert.equal(byType.faq, 6);
  assert.ok(byType.reference >= 6);
  assert.match(seamlab("types", "--rules").stdout, /transcript/);
  const overridden = JSON.parse(
    seamlab("types", "--corpus", corpus, "--types", join(dir, "types.txt"), "--json").stdout,
  );
  assert.equal(overridden.documents.find((d: { doc: string }) => d.doc === "p0.md").type, "prose");
  assertUserError(
    seamlab("types", "--corpus", corpus, "--types", join(dir, "bad-types.txt")),
    /bad-types\.txt:2: unknown type "poetry"/,
  );
  assertUserError(seamlab("types", "--corpus", corpus, "--types", join(dir, "nope.txt")), /--types: file .* not found/);
});

test("seams reports code-block cuts with a CI for window and none for structure under the hard limit", () => {
  const corpus = join(dir, "docs");
  const rate = (splitter: string) => {
    const out = JSON.parse(
      seamlab("seams", "--corpus", corpus, "--splitter", splitter, "--size", "200", "--overlap", "0", "--json").stdout,
    );
    return out.structureDamage.rows.find(
      (r: { type: string; kind: string }) => r.type === "all" && r.kind === "code-block",
    );
  };
  const window = rate("window");
  assert.ok(window.damaged > 0 && window.low > 0 && window.low < window.value && window.value <= window.high);
  const structure = rate("structure");
  assert.equal(structure.damaged, 0);
  assert.match(
    seamlab("seams", "--corpus", corpus, "--splitter", "structure", "--size", "200", "--overlap", "0").stdout,
    /cut inside a fenced code block/,
  );
});

test("compare-splitters adds structural damage columns; structure flags are checked before any work", () => {
  const corpus = join(dir, "docs");
  const out = seamlab("compare-splitters", "--corpus", corpus, "--configs", "window:200:0,structure:200:0", "--json");
  const rows = JSON.parse(out.stdout).rows;
  assert.ok(rows[0].codeBlockCutPct > 0);
  assert.equal(rows[1].codeBlockCutPct, 0);
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--splitter", "structure", "--per-type", "{bad"),
    /--per-type: invalid JSON/,
  );
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--splitter", "structure", "--per-type", '{"poem":{"size":1,"overlap":0}}'),
    /unknown type "poem"/,
  );
  // --per-type as a file: faq sections at size 60 are cut, so structure has more chunks than without it.
  writeFileSync(join(dir, "per-type.json"), '{"faq":{"size":60,"overlap":0}}');
  const chunks = (...extra: string[]) =>
    JSON.parse(
      seamlab(
        "seams",
        "--corpus",
        corpus,
        "--splitter",
        "structure",
        "--size",
        "200",
        "--overlap",
        "0",
        ...extra,
        "--json",
      ).stdout,
    ).chunks;
  assert.ok(chunks("--per-type", join(dir, "per-type.json")) > chunks());
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--splitter", "structure", "--per-type", join(dir, "missing.json")),
    /--per-type: ".*missing\.json" is neither JSON/,
  );
  assertUserError(
    seamlab("seams", "--corpus", corpus, "--splitter", "structure", "--hard-limit", "x"),
    /--hard-limit must be a whole number/,
  );
});

test("sweep --by-type gives one curve per type and states the per-type vs uniform answer", () => {
  const corpus = join(dir, "docs");
  const out = seamlab(
    "sweep",
    "--by-type",
    "--corpus",
    corpus,
    "--size",
    "300",
    "--overlaps",
    "0,100",
    "--min-queries",
    "2",
    "--workers",
    "0",
    "--no-cache",
    "--json",
  );
  assert.equal(out.status, 0, out.stderr);
  const json = JSON.parse(out.stdout);
  const types = json.curves.map((c: { type: string }) => c.type);
  assert.deepEqual(types, ["all", "reference", "faq"]);
  assert.equal(json.queries, 12);
  for (const c of json.curves)
    assert.ok(["decided", "leaning", "undecided", "too few queries"].includes(c.verdict), c.verdict);
  assert.match(json.perTypeVsUniform.answer, /per-type settings (gain|lose)|no measurable gain: keep one setting/);
});

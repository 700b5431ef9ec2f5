import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { formatFixed, formatRatio, formatTable, toJson, writeFileAtomically } from "../../src/cli/format";
import { pct } from "../../src/study/format";
import { thousands } from "../../src/stats/format";

test("tables pad columns to the widest cell and right-align numbers", () => {
  const table = formatTable(
    [{ header: "config" }, { header: "chunks", align: "right" }],
    [
      ["window:1000:200", "7"],
      ["tail", "1,234"],
    ],
  );
  assert.equal(
    table,
    ["config           chunks", "---------------  ------", "window:1000:200       7", "tail              1,234"].join(
      "\n",
    ),
  );
});

test("integers get comma thousands separators; percentages take fractions; missing numbers read n/a", () => {
  assert.deepEqual(
    [thousands(0), thousands(999), thousands(1000), thousands(1234567), thousands(-4155)],
    ["0", "999", "1,000", "1,234,567", "-4,155"],
  );
  assert.equal(pct(0.5249), "52.5%");
  assert.deepEqual([pct(NaN), thousands(NaN), formatFixed(NaN), formatRatio(NaN)], ["n/a", "n/a", "n/a", "n/a"]);
});

test("JSON output rounds float noise to 4 decimals and keeps integers", () => {
  assert.equal(toJson({ a: 1 / 3, b: 2, c: NaN }), '{\n  "a": 0.3333,\n  "b": 2,\n  "c": null\n}');
});

test("JSON output writes an infinite number as a string that reads back, never as null", () => {
  const parsed = JSON.parse(toJson({ needed: Infinity, low: -Infinity, decided: null })) as Record<string, unknown>;
  assert.deepEqual(parsed, { needed: "Infinity", low: "-Infinity", decided: null });
  assert.equal(Number(parsed.needed), Infinity);
});

test("atomic writes refuse to overwrite without force and leave no temp file", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-format-"));
  try {
    const path = join(dir, "out.jsonl");
    writeFileAtomically(path, "one\n");
    assert.equal(readFileSync(path, "utf8"), "one\n");
    assert.throws(
      () => writeFileAtomically(path, "two\n", { flag: "--per-seam" }),
      (e: unknown) => e instanceof SeamlabError && /--per-seam .* already exists; pass --force/.test(e.message),
    );
    writeFileAtomically(path, "three\n", { force: true });
    assert.equal(readFileSync(path, "utf8"), "three\n");
    assert.deepEqual(readdirSync(dir), ["out.jsonl"]);
    writeFileSync(join(dir, "x"), "");
    assert.throws(() => writeFileAtomically(join(dir, "missing/out.jsonl"), ""), /does not exist/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

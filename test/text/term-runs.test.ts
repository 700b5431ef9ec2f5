import { test } from "node:test";
import assert from "node:assert/strict";
import { seededRandom } from "../../src/core/random";
import { lowerTermRuns } from "../../src/text/term-runs";

test("term runs: the ASCII shortcut finds exactly the Unicode pattern's runs, and other text takes the pattern", () => {
  const unicode = (lower: string) => lower.match(/[\p{L}\p{N}]+/gu) ?? [];
  const random = seededRandom(3);
  const alphabet = ["a", "Z", "0", "9", " ", "-", "_", "\n", "'", "é", "Ω", "٣", "𝔘", "ª", "\u0301", "x"];
  for (let i = 0; i < 2000; i++) {
    const length = Math.floor(random() * 40);
    const ascii = i % 2 === 0;
    const pool = ascii ? alphabet.filter((c) => c.charCodeAt(0) < 128) : alphabet;
    const text = Array.from({ length }, () => pool[Math.floor(random() * pool.length)])
      .join("")
      .toLowerCase();
    assert.deepEqual(lowerTermRuns(text), unicode(text), JSON.stringify(text));
  }
  assert.deepEqual(lowerTermRuns("otel_exporter v2, ünïcode 42"), ["otel", "exporter", "v2", "ünïcode", "42"]);
  assert.deepEqual(lowerTermRuns("  -- "), []);
});

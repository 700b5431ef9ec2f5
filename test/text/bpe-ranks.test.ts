import { test } from "node:test";
import assert from "node:assert/strict";
import { rankOfBytes, rankTableOf, tokenByteLength } from "../../src/text/bpe-ranks";
import {
  countTokens,
  encodeTokens,
  encodingNames,
  getEncoding,
  lengthFunctionFor,
  rankTable,
  tokenCounter,
  tokenOffsets,
} from "../../src/text/tokens";
import { projectRequire } from "../../src/core/project";

// First in this file (each test file runs in a process of its own): nothing before it built an encoder.
test("counting, encoding and mapping token offsets never build js-tiktoken's encoder (its 0.3 s table per thread)", () => {
  const text = "Overlap is an upper bound, not a promise: 200 characters. supercalifragilistic \u65E5\u672C\u8A9E";
  assert.ok(countTokens(text) > 10);
  assert.ok(tokenCounter("o200k_base")(text) > 10);
  assert.ok(encodeTokens(text).length > 10);
  assert.equal(tokenOffsets(text).ends.at(-1), text.length);
  assert.ok(lengthFunctionFor("tokens")(text) > 10);
  // js-tiktoken's entry (every encoding's ranks) was never even loaded
  assert.equal(projectRequire().cache[projectRequire().resolve("js-tiktoken")], undefined);
});

test("the rank table holds exactly js-tiktoken's ranks and token bytes, in every encoding shipped", () => {
  for (const name of encodingNames) {
    const table = rankTable(name);
    const internals = getEncoding(name) as unknown as {
      patStr: string;
      rankMap: Map<string, number>;
      textMap: Map<number, Uint8Array>;
    };
    assert.equal(table.patStr, internals.patStr, name);
    for (const [key, rank] of internals.rankMap) {
      const bytes = Uint8Array.from(key.split(","), Number);
      assert.equal(rankOfBytes(table, bytes, 0, bytes.length), rank, `${name}: ${key}`);
    }
    for (const [rank, bytes] of internals.textMap) assert.equal(tokenByteLength(table, rank), bytes.length, name);
    const ranked = table.start.filter((start) => start >= 0).length;
    assert.equal(ranked, internals.textMap.size, `${name}: as many tokens`);
  }
});

test("a byte string that is no token has no rank, and a lookup reads only the range it is given", () => {
  const table = rankTableOf({ pat_str: "\\S+", bpe_ranks: "! 0 YQ== Yg== YWI=\n! 5 Yw==" });
  const bytes = Uint8Array.of(0x78, 0x61, 0x62, 0x63, 0x78); // "xabcx"
  assert.equal(rankOfBytes(table, bytes, 1, 2), 0); // "a"
  assert.equal(rankOfBytes(table, bytes, 2, 3), 1); // "b"
  assert.equal(rankOfBytes(table, bytes, 1, 3), 2); // "ab"
  assert.equal(rankOfBytes(table, bytes, 3, 4), 5); // "c", a line of its own from rank 5
  assert.equal(rankOfBytes(table, bytes, 2, 4), -1); // "bc"
  assert.equal(rankOfBytes(table, bytes, 0, 1), -1); // "x"
  assert.equal(tokenByteLength(table, 2), 2);
  assert.equal(tokenByteLength(table, 3), -1); // ranks 3 and 4 are not listed
});

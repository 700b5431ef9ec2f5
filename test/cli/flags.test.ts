// The flag readers every command uses, and every numeric flag of every command at its bounds: one step outside
// is refused naming the flag and the range; the bound itself is accepted (the command then stops at the
// missing corpus, which is checked after every flag).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import { choiceFlag, describeRange, intFlag, intListFlag, numberFlag, stringFlag } from "../../src/cli/flags";
import { commands } from "../../src/cli/commands";

test("intFlag reads plain and scientific whole numbers and names the flag, range and unit when refusing", () => {
  const bounds = { min: 1, max: 1000, unit: "chars" };
  assert.equal(intFlag({ size: "250" }, "size", 7, bounds), 250);
  assert.equal(intFlag({ size: "1e2" }, "size", 7, bounds), 100);
  assert.equal(intFlag({}, "size", 7, bounds), 7);
  for (const bad of ["abc", "", "12abc", "0x10", "2.5", "Infinity", "NaN", "1,000"]) {
    assert.throws(
      () => intFlag({ size: bad }, "size", 7, bounds),
      (error: unknown) =>
        error instanceof SeamlabError &&
        /^--size must be a whole number from 1 to 1000 chars; got "/.test(error.message),
      bad,
    );
  }
  assert.throws(() => intFlag({ size: "0" }, "size", 7, bounds), /got "0", which is out of range/);
  assert.throws(() => intFlag({ size: "1001" }, "size", 7, bounds), /got "1001", which is out of range/);
  assert.throws(
    () => intFlag({}, "size", undefined, bounds),
    /--size is required \(a whole number from 1 to 1000 chars\)/,
  );
});

test("numberFlag honours an open lower bound, and ranges read naturally", () => {
  const bounds = { min: 0, max: 100, exclusiveMin: true };
  assert.equal(numberFlag({ s: "0.5" }, "s", 1, bounds), 0.5);
  assert.throws(() => numberFlag({ s: "0" }, "s", 1, bounds), /--s must be a number above 0 and at most 100; got "0"/);
  assert.equal(describeRange("a number", { min: 0 }), "a number >= 0");
  assert.equal(
    describeRange("a whole number", { min: 1, max: 20000, unit: "tokens" }),
    "a whole number from 1 to 20,000 tokens",
  );
});

test("intListFlag refuses duplicates and names the bad item", () => {
  const bounds = { min: 0, max: 500 };
  assert.deepEqual(intListFlag({ o: "0, 50,100" }, "o", undefined, bounds), [0, 50, 100]);
  assert.throws(() => intListFlag({ o: "0,50,50" }, "o", undefined, bounds), /--o lists 50 more than once/);
  assert.throws(
    () => intListFlag({ o: "0,x" }, "o", undefined, bounds),
    /--o must be a whole number from 0 to 500; got item "x"/,
  );
  assert.throws(() => intListFlag({ o: "," }, "o", undefined, bounds), /--o must list at least one whole number/);
});

test("stringFlag and choiceFlag name the flag", () => {
  assert.throws(() => stringFlag({ corpus: "" }, "corpus"), /--corpus is required/);
  assert.equal(choiceFlag({ unit: "tokens" }, "unit", ["chars", "tokens"], "chars"), "tokens");
  assert.throws(
    () => choiceFlag({ unit: "bytes" }, "unit", ["chars", "tokens"], "chars"),
    /--unit must be chars or tokens; got "bytes"/,
  );
});

const missing = "/nonexistent/seamlab-corpus";

/** [command, flag, lowest accepted, highest accepted, extra args]; `step` is how far outside we probe. */
const numericFlags: [string, string, number, number, string[]][] = [
  ["seams", "size", 1, 10_000_000, ["--overlap", "0"]],
  ["seams", "overlap", 0, 9_999_999, ["--size", "10000000"]],
  ["seams", "limit", 1, 10_000_000, []],
  ["pairs", "size", 1, 10_000_000, ["--overlap", "0"]],
  ["embed", "size", 1, 10_000_000, ["--overlap", "0"]],
  ["embed", "embed-dims", 1, 65_536, []],
  ["embed", "semantic-percentile", 0, 100, ["--splitter", "semantic"]],
  ["embed", "semantic-similarity", -1, 1, ["--splitter", "semantic"]],
  ["embed", "overlap-sentences", 0, 2, ["--splitter", "semantic"]],
  ["retrieve", "size", 1, 10_000_000, ["--overlap", "0"]],
  ["retrieve", "k", 1, 10_000, []],
  ["retrieve", "k1", 0, 10, []],
  ["retrieve", "bm25-b", 0, 1, []],
  ["retrieve", "near-duplicate-threshold", 0, 1, []],
  ["retrieve", "seed", 0, 2 ** 32 - 1, []],
  ["retrieve", "gold-sentences", 1, 100, []],
  ["retrieve", "embed-dims", 1, 65_536, ["--retriever", "dense"]],
  ["retrieve", "embed-batch", 1, 10_000, ["--retriever", "dense", "--embedder", "transformers", "--model-dir", "m"]],
  ["compare", "k", 1, 10_000, ["--a", "langchain:1000:0", "--b", "langchain:500:0"]],
  ["sweep", "size", 1, 10_000_000, ["--overlaps", "0"]],
  ["sweep", "ks", 1, 10_000, []],
  ["sweep", "final-k", 1, 10_000, ["--ks", "10000"]],
  ["sweep", "mmr-lambda", 0, 1, []],
  ["sweep", "epsilon", 0, 1, []],
  ["sweep", "price", 0, 1_000_000, []],
  ["sweep", "dims", 1, 65_536, []],
  ["sweep", "bytes", 1, 16, []],
  ["sweep", "workers", 0, 256, []],
  ["report", "timeout", 1, 86_400, ["--out", "/nonexistent/seamlab-out"]],
  ["report", "jobs", 1, 256, ["--out", "/nonexistent/seamlab-out"]],
];

async function outcome(command: string, args: string[]): Promise<string> {
  const mod = await commands[command].load();
  try {
    await mod.run(["--corpus", missing, ...args]);
    return "ran";
  } catch (error) {
    if (!(error instanceof SeamlabError)) throw error;
    return error.message;
  }
}

test("every numeric flag is refused one step outside its range and accepted at its bounds", async () => {
  for (const [command, flag, low, high, extra] of numericFlags) {
    const step = high - low <= 2 ? 0.5 : 1;
    const whole = Number.isInteger(step) || !["overlap-sentences"].includes(flag);
    for (const value of [low - step, high + step]) {
      if (!whole && !Number.isInteger(value)) continue;
      const message = await outcome(command, [...extra, `--${flag}=${value}`]);
      assert.match(message, new RegExp(`^--${flag}\\b.* must be `), `${command} --${flag} ${value}: ${message}`);
    }
    for (const value of [low, high]) {
      const message = await outcome(command, [...extra, `--${flag}=${value}`]);
      assert.doesNotMatch(message, new RegExp(`--${flag}\\b`), `${command} --${flag} ${value}: ${message}`);
      assert.match(message, /seamlab-corpus/, `${command} --${flag} ${value} stops at the corpus: ${message}`);
    }
  }
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import type { SplitterConfig } from "../../src/splitters/config";
import {
  describeSplitter,
  splitCorpus,
  splitDoc,
  splitterNames,
  validateSplitterConfig,
} from "../../src/splitters/registry";

const ok: SplitterConfig = { splitter: "window", size: 100, overlap: 20 };

function rejects(config: SplitterConfig, message: RegExp) {
  assert.throws(
    () => validateSplitterConfig(config),
    (e: unknown) => e instanceof SeamlabError && message.test(e.message),
  );
}

test("the registry names the issue's seven splitters, each with a description", () => {
  for (const name of ["window", "window-words", "langchain", "recursive", "sentences", "tail", "tokens"]) {
    assert.ok(splitterNames.includes(name), name);
    assert.ok(describeSplitter(name).length > 20);
  }
});

test("overlap equal to or above size names both parameters", () => {
  rejects({ ...ok, size: 100, overlap: 200 }, /^--overlap \(200\) must be smaller than --size \(100\)$/);
  rejects({ ...ok, size: 100, overlap: 100 }, /--overlap \(100\) must be smaller than --size \(100\)/);
});

test("negative, zero, fractional or non-numeric sizes and overlaps are rejected by name", () => {
  rejects({ ...ok, size: -5 }, /--size \(-5\) must be a positive integer/);
  rejects({ ...ok, size: 0 }, /--size \(0\)/);
  rejects({ ...ok, size: 10.5 }, /--size \(10\.5\)/);
  rejects({ ...ok, size: Number.NaN }, /--size \(NaN\)/);
  rejects({ ...ok, size: "100" as unknown as number }, /--size \(100\)/);
  rejects({ ...ok, overlap: -1 }, /--overlap \(-1\) must be a non-negative integer/);
  rejects({ ...ok, overlap: 2.5 }, /--overlap \(2\.5\)/);
});

test("unknown splitter, unit and encoding are rejected with the valid choices", () => {
  rejects({ ...ok, splitter: "fixed" }, /unknown --splitter "fixed": use one of window, window-words, langchain/);
  rejects({ ...ok, splitter: "toString" }, /unknown --splitter "toString"/);
  rejects({ ...ok, unit: "words" as never }, /unknown --unit "words": use chars or tokens/);
  rejects({ ...ok, encoding: "cl999" }, /unknown --encoding "cl999": use one of cl100k_base/);
  rejects({ ...ok, splitter: "recursive", separators: [] }, /--separators must not be empty/);
});

test("splitter-specific options are checked up front, naming the option", () => {
  rejects({ ...ok, splitter: "window-words", unit: "tokens" }, /--splitter window-words counts characters only/);
  rejects({ ...ok, splitter: "langchain", separators: ["\\. "], separatorsAreRegex: true }, /regex separators/);
  rejects(
    { ...ok, splitter: "recursive", separators: ["(("], separatorsAreRegex: true },
    /--separators: "\(\(" is not a valid regular expression/,
  );
  rejects(
    { ...ok, splitter: "tail", extra: { keepSeparator: "middle" } },
    /keepSeparator must be true, false, "start" or "end"/,
  );
  rejects(
    { ...ok, splitter: "langchain", extra: { keepSeparator: "end" } },
    /keepSeparator must be true or false in LangChain JS/,
  );
});

test("splitDoc validates before splitting", () => {
  assert.throws(() => splitDoc({ id: "d", text: "abc" }, { ...ok, overlap: 100 }), SeamlabError);
});

test("splitCorpus returns the chunks of every document in document order", () => {
  const docs = [
    { id: "b", text: "x".repeat(250) },
    { id: "a", text: "y".repeat(90) },
  ];
  for (const splitter of ["window", "langchain", "recursive"]) {
    const chunks = splitCorpus(docs, { splitter, size: 100, overlap: 20 });
    assert.deepEqual(
      chunks.map((c) => c.doc),
      ["b", "b", "b", "a"],
      splitter,
    );
  }
});

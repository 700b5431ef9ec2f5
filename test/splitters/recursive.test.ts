// Expected outputs are worked out by hand from LangChain Python 0.3.x: character.py `_split_text` and
// `_split_text_with_regex` (re.split with a capture group, keep_separator True/"start"/"end"/False) and base.py
// `_merge_splits` (the total counts separators; pop while total > overlap or the next piece does not fit).
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SplitterConfig } from "../../src/splitters/config";
import { splitRecursive } from "../../src/splitters/recursive";
import { seededRandom } from "../../src/core/random";
import { paragraph599 } from "../helpers/prose";

function run(text: string, config: Partial<SplitterConfig> & { size: number; overlap: number }) {
  return splitRecursive({ id: "t", text }, { splitter: "recursive", ...config }).map((c) => [c.start, c.end, c.text]);
}

test("three 599-character paragraphs at 1000/200 give three chunks with zero overlap", () => {
  const text = [paragraph599("A"), paragraph599("B"), paragraph599("C")].join("\n\n");
  const chunks = splitRecursive({ id: "p", text }, { splitter: "recursive", size: 1000, overlap: 200 });
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end, c.text.length, c.text[0]]),
    [
      [0, 599, 599, "A"],
      [601, 1200, 599, "B"],
      [1202, 1801, 599, "C"],
    ],
  );
});

test("a lookbehind regex keeps the space at the start of the next piece and carries one sentence over", () => {
  // Pieces "One." " Two!" " Three?" " Four." (4, 5, 7, 6). At 14/6: emit "One. Two!", pop "One." (9 > 6), keep
  // " Two!" (5 + 7 fits); emit "Two! Three?", pop both (12 > 6, 7 > 6); end with "Four.".
  assert.deepEqual(
    run("One. Two! Three? Four.", { size: 14, overlap: 6, separators: ["(?<=[.!?]) "], separatorsAreRegex: true }),
    [
      [0, 9, "One. Two!"],
      [5, 16, "Two! Three?"],
      [17, 22, "Four."],
    ],
  );
});

test("keep_separator start, end and False place a non-space separator differently", () => {
  const base = { size: 5, overlap: 0, separators: ["-"] };
  // start: "ab" "-cd" "-ef"; end: "ab-" "cd-" "ef"; False: "ab" "cd" "ef" re-joined with "-".
  assert.deepEqual(run("ab-cd-ef", { ...base, extra: { keepSeparator: true } }), [
    [0, 5, "ab-cd"],
    [5, 8, "-ef"],
  ]);
  assert.deepEqual(run("ab-cd-ef", { ...base, extra: { keepSeparator: "end" } }), [
    [0, 3, "ab-"],
    [3, 8, "cd-ef"],
  ]);
  assert.deepEqual(run("ab-cd-ef", { ...base, extra: { keepSeparator: false } }), [
    [0, 5, "ab-cd"],
    [6, 8, "ef"],
  ]);
});

test("without keep_separator the merge total counts separators, as in Python (LangChain JS differs)", () => {
  // Python: after emitting "aa bb cc" the total is 8 (2+1+2+1+2); pop "aa" -> 5 > 4, pop "bb" -> 2; so the next
  // chunk is "cc dd". (LangChain JS leaves separators out of its total and keeps "bb cc dd".)
  assert.deepEqual(run("aa bb cc dd", { size: 8, overlap: 4, separators: [" "], extra: { keepSeparator: false } }), [
    [0, 8, "aa bb cc"],
    [6, 11, "cc dd"],
  ]);
});

test("an empty-width regex separator splits before each capital, with Python's empty-match rule", () => {
  // re.split("((?=[A-Z]))", "OneTwoThree") -> "", "", "One", "", "Two", "", "Three" -> pieces One, Two, Three.
  assert.deepEqual(run("OneTwoThree", { size: 7, overlap: 3, separators: ["(?=[A-Z])"], separatorsAreRegex: true }), [
    [0, 6, "OneTwo"],
    [6, 11, "Three"],
  ]);
});

test("a regex separator without keep_separator is re-joined with the pattern text, Python's quirk", () => {
  // re.split(r"\. ", ...) -> "One", "Two", "Three."; _merge_splits joins with the separator *pattern* r"\. ".
  const chunks = run("One. Two. Three.", {
    size: 10,
    overlap: 0,
    separators: ["\\. "],
    separatorsAreRegex: true,
    extra: { keepSeparator: false },
  });
  assert.deepEqual(chunks, [
    [0, 8, "One\\. Two"],
    [10, 16, "Three."],
  ]);
});

test("separators are tried in order and only pieces still too long go to the next one", () => {
  // "\n\n" is found: pieces "aaaa bbbb" (9) and "\n\ncc" (4). At size 6 the first is too long and is split on
  // " " (the next separator): "aaaa", " bbbb". Chunks are stripped.
  assert.deepEqual(run("aaaa bbbb\n\ncc", { size: 6, overlap: 0 }), [
    [0, 4, "aaaa"],
    [5, 9, "bbbb"],
    [11, 13, "cc"],
  ]);
});

test("a piece longer than the budget with no separator left is returned whole and unstripped", () => {
  // Separators ["\n\n"] only: " xxxxxxxx" (9 >= 5) has nothing left to split on, so Python appends it as is.
  assert.deepEqual(run("ab\n\n xxxxxxxx", { size: 5, overlap: 0, separators: ["\n\n"] }), [
    [0, 2, "ab"],
    [2, 13, "\n\n xxxxxxxx"],
  ]);
});

test("the character level splits code points, never a surrogate pair", () => {
  const text = "\u{1F600}".repeat(5); // 10 UTF-16 units, no separators
  const chunks = splitRecursive({ id: "e", text }, { splitter: "recursive", size: 4, overlap: 0 });
  assert.deepEqual(
    chunks.map((c) => [c.start, c.end]),
    [
      [0, 4],
      [4, 8],
      [8, 10],
    ],
  );
});

test("an invalid regex separator is a SeamlabError naming --separators", () => {
  assert.throws(() => run("abc", { size: 5, overlap: 0, separators: ["("], separatorsAreRegex: true }), /--separators/);
});

test("a run of three newlines stays one separator plus text, as Python's re.split gives it", () => {
  // re.split("(\n\n)", "aa\n\nbbb\n\n\ncc") -> "aa", "\n\n", "bbb", "\n\n", "\ncc": pieces "aa" (2), "\n\nbbb" (5),
  // "\n\n\ncc" (5). At 10/5: 12 > 10, emit "aa\n\nbbb"; pop "aa" (7 > 5); "\n\nbbb" stays (5, and 5 + 5 fits).
  assert.deepEqual(run("aa\n\nbbb\n\n\ncc", { size: 10, overlap: 5 }), [
    [0, 7, "aa\n\nbbb"],
    [4, 12, "bbb\n\n\ncc"],
  ]);
  // LangChain JS splits with a lookahead, "aa", "\n\nbbb", "\n", "\n\ncc": the extra "\n" piece pushes the total
  // over the overlap, "\n\nbbb" is popped, and the second chunk is only "cc". langchainJsCompat reproduces that.
  assert.deepEqual(run("aa\n\nbbb\n\n\ncc", { size: 10, overlap: 5, extra: { langchainJsCompat: true } }), [
    [0, 7, "aa\n\nbbb"],
    [10, 12, "cc"],
  ]);
});

test("a literal separator gives the chunks its regex gives, on seeded text full of separator runs", () => {
  // The default (literal separators kept at the start) has its own path straight from indexOf; the regex path is
  // the general one. Runs like "\n\n\n" and "  " are where a literal search could go wrong.
  const random = seededRandom(32);
  const alphabet = ["a", "b", "c", " ", " ", "\n", "\n\n", "\n\n\n", "xyz"];
  for (let trial = 0; trial < 200; trial++) {
    const length = 1 + Math.floor(random() * 400);
    let text = "";
    while (text.length < length) text += alphabet[Math.floor(random() * alphabet.length)];
    const size = 5 + Math.floor(random() * 60);
    const overlap = Math.floor(random() * size * 0.6);
    for (const keepSeparator of [true, "start"] as const) {
      const extra = { keepSeparator };
      const literal = run(text, { size, overlap, extra });
      const regex = run(text, {
        size,
        overlap,
        extra,
        separators: ["\\n\\n", "\\n", " ", ""],
        separatorsAreRegex: true,
      });
      assert.deepEqual(literal, regex, `${JSON.stringify(text)} at ${size}/${overlap}, keepSeparator ${keepSeparator}`);
    }
  }
});

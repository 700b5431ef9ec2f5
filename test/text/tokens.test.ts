import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import { countTokens, encodeTokens, getEncoding, tokenOffsets } from "../../src/text/tokens";

test("cl100k_base encodes the OpenAI cookbook example to its published token ids", () => {
  // OpenAI cookbook "How to count tokens with tiktoken": "tiktoken is great!" -> [83, 1609, 5963, 374, 2294, 0].
  assert.deepEqual(encodeTokens("tiktoken is great!"), [83, 1609, 5963, 374, 2294, 0]);
  assert.equal(countTokens("tiktoken is great!"), 6);
  assert.equal(countTokens(""), 0);
});

test("an encoding is loaded once per name", () => {
  assert.equal(getEncoding("cl100k_base"), getEncoding());
});

test("an unknown encoding is a SeamlabError naming --encoding and listing the valid ones", () => {
  assert.throws(
    () => getEncoding("cl200k"),
    (error: unknown) =>
      error instanceof SeamlabError &&
      /--encoding "cl200k"/.test(error.message) &&
      /cl100k_base/.test(error.message) &&
      /o200k_base/.test(error.message),
  );
});

test("special-token strings in a document count as plain text instead of throwing", () => {
  assert.ok(countTokens("before <|endoftext|> after") > 3);
});

test("ASCII token spans tile the text and each holds what its token decodes to", () => {
  const text = "Overlap is an upper bound, not a promise: 200 characters.";
  const { tokens, starts, ends } = tokenOffsets(text);
  const encoder = getEncoding();
  assert.equal(starts[0], 0);
  assert.equal(ends[tokens.length - 1], text.length);
  for (let t = 0; t < tokens.length; t++) {
    assert.equal(text.slice(starts[t], ends[t]), encoder.decode([tokens[t]]));
    if (t > 0) assert.equal(starts[t], ends[t - 1]);
  }
});

test("tokens that split a multi-byte character get spans widened to the whole character", () => {
  const text = "a\u{1F600}b \u65E5\u672C\u8A9E \u{1F1EB}\u{1F1F7} ok \uD800";
  const { tokens, starts, ends } = tokenOffsets(text);
  const isLowSurrogate = (i: number) =>
    i > 0 &&
    i < text.length &&
    (text.charCodeAt(i) & 0xfc00) === 0xdc00 &&
    (text.charCodeAt(i - 1) & 0xfc00) === 0xd800;
  for (let t = 0; t < tokens.length; t++) {
    assert.ok(starts[t] < ends[t], `token ${t} is empty`);
    assert.ok(!isLowSurrogate(starts[t]) && !isLowSurrogate(ends[t]), `token ${t} cuts a surrogate pair`);
    if (t > 0) assert.ok(starts[t] >= starts[t - 1] && ends[t] >= ends[t - 1] && starts[t] <= ends[t - 1]);
  }
  // The emoji (2 units) is split over several byte-level tokens that all map to [1, 3).
  assert.ok(tokens.length > text.length / 3);
  assert.equal(ends[tokens.length - 1], text.length);
});

test("the memoised encoder returns exactly js-tiktoken's tokens on real documents", async () => {
  const { pinnedCorpus, sampleDocs } = await import("../helpers/corpora");
  const docs = [...sampleDocs(pinnedCorpus("fastify-docs"), 4), ...sampleDocs(pinnedCorpus("moby-dick"), 14)];
  docs.unshift({ id: "mixed", text: "a\u{1F600}b \u65E5\u672C\u8A9E <|endoftext|>  \n\n\t x\r\n\u00A0y " });
  for (const name of ["cl100k_base", "o200k_base"]) {
    const encoder = getEncoding(name);
    for (const doc of name === "cl100k_base" ? docs : docs.slice(0, 4))
      assert.deepEqual(encodeTokens(doc.text, name), encoder.encode(doc.text, [], []), `${name} ${doc.id}`);
  }
});

test("growing prefixes, as a library's sentence splitter measures them word by word, encode and count as js-tiktoken does", () => {
  const texts = [
    "Call me Ishmael.  Some years ago\u2014never mind how long precisely\u2014having little or no money in my purse,\n\n",
    "don't   stop 12345678 na\u00efve caf\u00e9 \u65e5\u672c\u8a9e <|endoftext|> tabs\t\there   \n  \n",
    "```js\nconst x = 1;   // trailing   \n```\n\n## Heading\n\n- item one\n- item two   ",
    "",
    "   ",
  ];
  for (const name of ["cl100k_base", "o200k_base"]) {
    const encoder = getEncoding(name);
    // Pieces repeat across prefixes, and whitespace runs end them: both must leave the memo exact.
    for (const text of texts) {
      for (let end = 0; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        const expected = encoder.encode(prefix, [], []);
        assert.deepEqual(encodeTokens(prefix, name), expected, `${name}: ${JSON.stringify(prefix)}`);
        assert.equal(countTokens(prefix, name), expected.length, `${name} count: ${JSON.stringify(prefix)}`);
      }
    }
  }
});

test("pieces new to the memo are byte-pair merged exactly as js-tiktoken merges them, in every encoding shipped", () => {
  const awkward = [
    "supercalifragilisticexpialidocious antidisestablishmentarianism pneumonoultramicroscopic",
    "x".repeat(257) + " " + "ab".repeat(99) + " zzzzzzzzzzzzzzzzzzzzzqqqqqqqqqqqq",
    "\u65E5\u672C\u8A9E\u306E\u30C6\u30AD\u30B9\u30C8 \u0645\u0631\u062D\u0628\u0627 \u{1F469}\u200D\u{1F4BB}\u{1F1EF}\u{1F1F5}",
    "getElementsByTagNameNS(0x7FFFFFFF, 1234567890, 3.14159e-10); // TODO(otel): spanProcessorExporter",
    "  \t\t  \r\n\r\n\u00A0\u2003x  \u0000\u0001 <|endoftext|><|fim_prefix|>",
  ];
  for (const name of ["cl100k_base", "o200k_base", "p50k_base", "r50k_base"]) {
    const encoder = getEncoding(name);
    for (const text of awkward)
      assert.deepEqual(encodeTokens(text, name), encoder.encode(text, [], []), `${name} ${text}`);
  }
});

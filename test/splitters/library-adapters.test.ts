import assert from "node:assert/strict";
import { test } from "node:test";
import { getEncoding } from "js-tiktoken";
import { memoisedEncode } from "../../src/splitters/library-adapters.mjs";

const texts = [
  "Call me Ishmael.  Some years ago—never mind how long precisely—having little or no money in my purse,\n\n",
  "don't   stop 12345678 naïve café 日本語 <|endoftext|> tabs\t\there   \n  \n",
  "```js\nconst x = 1;   // trailing   \n```\n\n## Heading\n\n- item one\n- item two   ",
  "",
  "   ",
];

test("the libraries' memoised encoder gives js-tiktoken's encode(text, [], []) tokens, whole texts and every prefix", () => {
  for (const name of ["cl100k_base", "o200k_base"] as const) {
    const encoder = getEncoding(name);
    const encode = memoisedEncode(encoder);
    // Growing prefixes, as a sentence splitter measures them word by word: pieces repeat, whitespace runs end texts.
    for (const text of texts) {
      for (let end = 0; end <= text.length; end++) {
        const prefix = text.slice(0, end);
        assert.deepEqual(encode(prefix), encoder.encode(prefix, [], []), `${name}: ${JSON.stringify(prefix)}`);
      }
    }
    assert.equal(memoisedEncode(encoder), encode, "one memo per encoder");
  }
});

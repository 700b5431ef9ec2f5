import { test } from "node:test";
import assert from "node:assert/strict";
import { encodeInputs } from "../../src/experiment/worker";

test("the inputs travel as UTF-8 JSON filling their shared buffer exactly, whatever characters the documents hold", () => {
  const inputs = {
    docs: [
      { id: "a", text: "plain ASCII\n\nand a second paragraph" },
      {
        id: "b\u00e9",
        text: "caf\u00e9 \u65e5\u672c\u8a9e \u{1F600} a lone \ud800 surrogate and \u2028 a line separator",
      },
    ],
    queries: [{ id: "q", text: "caf\u00e9?", gold: [{ doc: "b\u00e9", start: 0, end: 4 }] }],
  };
  const shared = encodeInputs(inputs);
  assert.ok(shared instanceof SharedArrayBuffer);
  const text = Buffer.from(shared).toString("utf8");
  assert.equal(shared.byteLength, Buffer.byteLength(text, "utf8"));
  assert.deepEqual(JSON.parse(text), inputs);
});

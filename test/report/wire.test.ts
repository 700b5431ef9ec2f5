import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeMessage, encodeMessage, newMessage, sign, DELIMITER } from "../../src/report/wire";

test("message signatures match Python's hmac over the four JSON frames (jupyter_client's scheme)", () => {
  // Expected value computed with Python: hmac.new(key, digestmod=sha256) updated with each frame.
  const frames = ['{"msg_id":"a"}', "{}", "{}", '{"code":"1+1"}'];
  assert.equal(sign("0123456789abcdef", frames), "ba0fa9b0fec3d29a3bcef1956c95545df80694f44e86a4f49c010c7888264d18");
});

test("an encoded message decodes back, skipping routing ids before the delimiter", () => {
  const message = newMessage("execute_request", { code: "1 + 1" }, "session-1");
  const frames = encodeMessage("k", message).map((frame) => Buffer.from(frame));
  const decoded = decodeMessage("k", [Buffer.from("routing-id"), ...frames]);
  assert.deepEqual(decoded, message);
  assert.equal(frames[0].toString(), DELIMITER);
});

test("a message with a wrong signature is rejected", () => {
  const frames = encodeMessage("k", newMessage("status", { execution_state: "idle" }, "s")).map((f) => Buffer.from(f));
  frames[1] = Buffer.from("0".repeat(64));
  assert.throws(() => decodeMessage("k", frames), /bad HMAC/);
});

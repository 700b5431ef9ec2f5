import { test } from "node:test";
import assert from "node:assert/strict";
import { OutputCollector, errorFromStderr } from "../../src/report/outputs";
import { newMessage } from "../../src/report/wire";

const msg = (type: string, content: Record<string, unknown>) => newMessage(type, content, "s");

test("consecutive stream text of the same name is merged into one output", () => {
  const outputs = new OutputCollector().collect(
    [
      msg("stream", { name: "stdout", text: "a\n" }),
      msg("stream", { name: "stdout", text: "b\n" }),
      msg("stream", { name: "stderr", text: "c\n" }),
    ],
    1,
  );
  assert.deepEqual(outputs, [
    { output_type: "stream", name: "stdout", text: "a\nb\n" },
    { output_type: "stream", name: "stderr", text: "c\n" },
  ]);
});

test("update_display_data replaces the earlier output with the same display id, even in an earlier cell", () => {
  const collector = new OutputCollector();
  const first = collector.collect(
    [msg("display_data", { data: { "text/plain": "0%" }, metadata: {}, transient: { display_id: "p" } })],
    1,
  );
  const second = collector.collect(
    [msg("update_display_data", { data: { "text/plain": "100%" }, metadata: {}, transient: { display_id: "p" } })],
    2,
  );
  assert.deepEqual(second, []);
  assert.deepEqual(first[0], { output_type: "display_data", data: { "text/plain": "100%" }, metadata: {} });
});

test("clear_output with wait clears only when the next output arrives", () => {
  const outputs = new OutputCollector().collect(
    [
      msg("stream", { name: "stdout", text: "old" }),
      msg("clear_output", { wait: true }),
      msg("stream", { name: "stdout", text: "new" }),
    ],
    1,
  );
  assert.deepEqual(outputs, [{ output_type: "stream", name: "stdout", text: "new" }]);
});

test("tslab's stderr-only failure becomes an nbformat error output named after the exception", () => {
  const stderr =
    'evalmachine.<anonymous>:2\nthrow new Error("boom");\n^\n\nTypeError: boom here\n    at evalmachine.<anonymous>:2:7\n    at Script.runInThisContext (node:vm:135:14)\n    at Object.execute (/x/node_modules/tslab/dist/executor.js:160:38)\n';
  const outputs = errorFromStderr(
    [
      { output_type: "stream", name: "stdout", text: "before\n" },
      { output_type: "stream", name: "stderr", text: stderr },
    ],
    "cell failed",
  );
  assert.equal(outputs.length, 2);
  assert.deepEqual(outputs[0], { output_type: "stream", name: "stdout", text: "before\n" });
  const error = outputs[1];
  assert.ok(error.output_type === "error");
  assert.equal(error.ename, "TypeError");
  assert.equal(error.evalue, "boom here");
  assert.ok(error.traceback.includes("    at evalmachine.<anonymous>:2:7"));
  assert.ok(!error.traceback.some((line) => line.includes("node_modules/tslab") || line.includes("node:vm")));
});

test("a compile error (no Error: line) keeps its first line as the message", () => {
  const outputs = errorFromStderr(
    [{ output_type: "stream", name: "stderr", text: "1:7 - Type 'string' is not assignable to type 'number'.\n" }],
    "cell failed",
  );
  assert.ok(outputs[0].output_type === "error");
  assert.equal(outputs[0].evalue, "1:7 - Type 'string' is not assignable to type 'number'.");
});

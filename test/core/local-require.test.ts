import { test } from "node:test";
import assert from "node:assert/strict";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { requireFrom } from "../../src/core/local-require";

const here = dirname(fileURLToPath(import.meta.url));

test("requireFrom resolves relative paths from the calling file, found by its name in the stack", () => {
  assert.equal(requireFrom("local-require.test").resolve("./project.test.ts"), join(here, "project.test.ts"));
});

test("requireFrom falls back to the given folder when no stack frame names the file", () => {
  const root = resolve(here, "..", "..");
  assert.equal(requireFrom("no-such-file", root + "/").resolve("./package.json"), join(root, "package.json"));
});

// A user's `--types` heading pattern runs on every heading of the corpus: it must not be able to hang seamlab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { classifyDoc } from "../../src/corpus/doc-types";
import { parseTypeOverrides } from "../../src/corpus/type-overrides";
import { SeamlabError } from "../../src/core/errors";

const root = fileURLToPath(new URL("../..", import.meta.url));

test("a catastrophic heading pattern such as /(a+)+$/ classifies a long heading at once (a linear-time engine)", () => {
  // In a child process with a kill deadline: a backtracking engine blocks its thread, so no in-process timer fires.
  const script = `
    import { classifyDoc } from "./src/corpus/doc-types.ts";
    import { parseTypeOverrides } from "./src/corpus/type-overrides.ts";
    const rules = parseTypeOverrides("heading: /(a+)+$/ faq\\n", "types.txt");
    const heading = "a".repeat(40) + "!";
    const typed = classifyDoc({ id: "x.md", text: "# " + heading + "\\n\\nSome prose under the heading.\\n" }, rules);
    const hit = classifyDoc({ id: "y.md", text: "# aaaa\\n\\nSome prose under the heading.\\n" }, rules);
    console.log(JSON.stringify([typed.sections[0].reason, hit.sections[0].reason]));`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(child.signal, null, "the pattern ran until the test killed it");
  assert.equal(child.status, 0, child.stderr);
  const [miss, hit] = JSON.parse(child.stdout.trim().split("\n").pop()!) as string[];
  assert.doesNotMatch(miss, /override/, "the heading ending in ! does not match (a+)+$");
  assert.match(hit, /^override types\.txt:1$/);
});

test("heading patterns keep JavaScript's everyday syntax, case-insensitive", () => {
  const rules = parseTypeOverrides("heading: /\\?$/ faq\nheading: /^(install|set ?up)\\b/ reference\n", "t.txt");
  const doc = (heading: string) => ({ id: "d.md", text: `## ${heading}\n\nSome prose under the heading here.\n` });
  assert.equal(classifyDoc(doc("Why seams?"), rules).sections[0].type, "faq");
  assert.equal(classifyDoc(doc("SETUP on Linux"), rules).sections[0].type, "reference");
  assert.notEqual(classifyDoc(doc("Overview"), rules).sections[0].reason, "override t.txt:1");
});

test("a heading pattern a linear-time engine cannot run (a backreference, a lookahead) is refused naming the line", () => {
  for (const pattern of ["/(a)\\1/", "/^(?=FAQ)/"]) {
    assert.throws(
      () => parseTypeOverrides(`# rules\nheading: ${pattern} faq\n`, "t.txt"),
      (error: unknown) =>
        error instanceof SeamlabError && /^t\.txt:2: invalid heading pattern .*no lookahead/.test(error.message),
    );
  }
});

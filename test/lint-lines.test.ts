/**
 * No source line over 140 characters in `src/`, `scripts/` and `bin/`. Prettier wraps code at 120 but never breaks
 * a string, a template or a comment, and ESLint's `max-len` is deprecated; so this test reads the files as text and
 * counts strings, templates and comments like any other line. Long CSS, help text and messages are split with
 * concatenation or a template line continuation (`\` at a line's end), which leaves the output unchanged.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINE = 140;
const root = fileURLToPath(new URL("..", import.meta.url));
const CHECKED = ["src", "scripts", "bin"];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path));
    else if (/\.(ts|mts|mjs|js|md)$/.test(name)) out.push(path);
  }
  return out;
}

/** `file:line: N characters` for every line longer than `max` (UTF-16 length, as editors and Prettier count). */
export function longLines(dir: string, max = MAX_LINE): string[] {
  const found: string[] = [];
  for (const file of files(dir)) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (line.length > max) found.push(`${file}:${i + 1}: ${line.length} characters`);
      });
  }
  return found;
}

test(`no line in ${CHECKED.join(", ")} is longer than ${MAX_LINE} characters, strings and comments included`, () => {
  const found = CHECKED.flatMap((dir) => longLines(join(root, dir)));
  assert.deepEqual(found, [], `split these lines (concatenation, or \`\\\` + newline inside a template):`);
});

test("the line check catches a long template line and a long comment, and passes a line of exactly the limit", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-lines-"));
  try {
    writeFileSync(
      join(dir, "a.ts"),
      `export const css = \`\n${"x".repeat(MAX_LINE)}\n${"y".repeat(MAX_LINE + 1)}\`;\n`,
    );
    writeFileSync(join(dir, "b.ts"), `// ${"z".repeat(MAX_LINE)}\n`);
    assert.deepEqual(longLines(dir), [
      `${join(dir, "a.ts")}:3: ${MAX_LINE + 3} characters`,
      `${join(dir, "b.ts")}:1: ${MAX_LINE + 3} characters`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

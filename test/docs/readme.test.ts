/**
 * The README is a front door (issue 31 §7): at most 150 lines, and every relative link in it and in docs/*.md
 * reaches a file that exists and, when it names an anchor, a heading of that file (GitHub's heading ids).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import MarkdownIt from "markdown-it";
import type { Token } from "markdown-it";

const root = fileURLToPath(new URL("../..", import.meta.url));
const MAX_README_LINES = 150;
const markdown = new MarkdownIt({ html: false });

/** Every token, inline children included, in document order. */
function flatten(tokens: Token[]): Token[] {
  return tokens.flatMap((t) => [t, ...flatten(t.children ?? [])]);
}

/** GitHub's heading id: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2, ... */
export function headingIds(text: string): Set<string> {
  const tokens = markdown.parse(text, {});
  const ids = new Set<string>();
  const used = new Map<string, number>();
  tokens.forEach((token, i) => {
    if (token.type !== "heading_open") return;
    const plain = flatten(tokens[i + 1].children ?? [])
      .filter((t) => t.type === "text" || t.type === "code_inline")
      .map((t) => t.content)
      .join("");
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = used.get(base) ?? 0;
    used.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  });
  return ids;
}

/** `file: target (why)` for each relative link of `file` that does not resolve; links to the web are not checked. */
export function brokenLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const hrefs = flatten(markdown.parse(text, {}))
    .filter((t) => t.type === "link_open")
    .map((t) => String(t.attrGet("href") ?? ""));
  const broken: string[] = [];
  for (const href of hrefs) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const [path, anchor] = href.split("#", 2);
    const target = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    const name = `${relative(root, file)}: ${href}`;
    if (!existsSync(target)) {
      broken.push(`${name} (no such file)`);
    } else if (anchor !== undefined && statSync(target).isFile() && target.endsWith(".md")) {
      if (!headingIds(readFileSync(target, "utf8")).has(anchor)) broken.push(`${name} (no such heading)`);
    }
  }
  return broken;
}

function docsFiles(): string[] {
  const dir = join(root, "docs");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(dir, name));
}

test(`README.md is at most ${MAX_README_LINES} lines`, () => {
  const lines = readFileSync(join(root, "README.md"), "utf8").replace(/\n$/, "").split("\n").length;
  assert.ok(lines <= MAX_README_LINES, `README.md has ${lines} lines: move detail into docs/`);
});

test("every relative link in README.md and docs/*.md reaches an existing file and heading", () => {
  const files = [join(root, "README.md"), ...docsFiles()];
  assert.ok(files.length > 1, "docs/ holds no markdown files");
  assert.deepEqual(files.flatMap(brokenLinks), []);
});

test("the README links to every page in docs/", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const unlinked = docsFiles()
    .map((file) => relative(root, file))
    .filter((path) => !readme.includes(`](${path})`) && !readme.includes(`](${path}#`));
  assert.deepEqual(unlinked, []);
});

test("heading ids follow GitHub's rule, and a link to a missing file or heading is reported", () => {
  assert.deepEqual(
    [...headingIds("# Scale: a large corpus in minutes\n## Other libraries' `splitters`\n## A b\n## A b\n")],
    ["scale-a-large-corpus-in-minutes", "other-libraries-splitters", "a-b", "a-b-1"],
  );
  const dir = mkdtempSync(join(tmpdir(), "seamlab-links-"));
  try {
    writeFileSync(join(dir, "b.md"), "# Title\n\n## Part two\n");
    const page = join(dir, "a.md");
    writeFileSync(
      page,
      "# A\n\n[ok](b.md) [ok](b.md#part-two) [ok](#a) [web](https://example.com/x.md)\n" +
        "[gone](c.md) [no heading](b.md#part-three) `[in code](d.md)`\n\n```\n[fenced](e.md)\n```\n",
    );
    assert.deepEqual(
      brokenLinks(page).map((line) => line.replace(/^.*?: /, "")),
      ["c.md (no such file)", "b.md#part-three (no such heading)"],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

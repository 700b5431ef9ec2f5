import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tinyCorpusFolder } from "../helpers/tiny-corpus";
import { seamlab } from "./spawn-cli";

/** The tiny corpus plus a page whose first sentence carries markup: a 50-char chunk cannot hold it, a 200 can. */
function corpusWithMarkup(): string {
  const dir = tinyCorpusFolder();
  writeFileSync(
    join(dir, "markup.md"),
    "## Escaping <script> tags\n\nNever trust <script>alert(1)</script> from a page & always escape it. Escaping " +
      "keeps pages safe.\n\nAnother paragraph about tags and pages follows here with more words.\n",
  );
  return dir;
}

const configs = ["--a", "recursive:50:0", "--b", "recursive:200:0", "--k", "1"];

test("flips lists the queries B wins and loses, with each side's seams around the gold span and its top-k", () => {
  const dir = corpusWithMarkup();
  try {
    const text = seamlab(["flips", "--corpus", dir, ...configs]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /B wins 2 \(B hits, A misses\), B loses 0 \(A hits, B misses\), ties 2/);
    assert.match(text.stdout, /B WINS {3}Escaping tags\n {2}gold markup\.md \[1, 70\)/);
    assert.match(text.stdout, /A recursive 50\/0 chars: miss; 2 chunk boundaries inside the gold span/);
    assert.match(text.stdout, /#1 markup\.md \[1, 167\) \(holds the gold\)/);

    const json = JSON.parse(seamlab(["flips", "--corpus", dir, ...configs, "--json"]).stdout);
    assert.equal(json.wins, 2);
    assert.equal(json.losses, 0);
    assert.deepEqual(
      json.rows.map((r: { outcome: string; a: { hit: boolean }; b: { hit: boolean } }) => [
        r.outcome,
        r.a.hit,
        r.b.hit,
      ]),
      [
        ["b wins", false, true],
        ["b wins", false, true],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("flips --html escapes the corpus's markup and replaces only a page it wrote", () => {
  const dir = corpusWithMarkup();
  try {
    const page = join(dir, "flips.html");
    const run = seamlab(["flips", "--corpus", dir, ...configs, "--html", page]);
    assert.equal(run.status, 0, run.stderr);
    const html = readFileSync(page, "utf8");
    assert.ok(!html.includes("<script>"), "no markup from the corpus reaches the page");
    assert.ok(html.includes("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert.match(html, /<mark>Never trust &lt;script&gt;alert\(1\)&lt;\/script&gt; from a page<\/mark>/);
    const again = seamlab(["flips", "--corpus", dir, ...configs, "--html", page]);
    assert.equal(again.status, 2);
    assert.match(again.stderr, /already exists; pass --force/);
    assert.equal(seamlab(["flips", "--corpus", dir, ...configs, "--html", page, "--force"]).status, 0);
    const notes = join(dir, "notes.html");
    writeFileSync(notes, "<p>mine</p>");
    const refused = seamlab(["flips", "--corpus", dir, ...configs, "--html", notes, "--force"]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /was not written by seamlab flips; it is never replaced/);
    assert.equal(readFileSync(notes, "utf8"), "<p>mine</p>");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("flips refuses a config it cannot read before loading the corpus", () => {
  const run = seamlab(["flips", "--corpus", "/no/such/corpus", "--a", "recursive:50", "--b", "recursive:200:0"]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--a must look like splitter:size:overlap\[:unit\]/);
  const missing = seamlab(["flips", "--a", "recursive:50:0"]);
  assert.match(missing.stderr, /--a and --b are required/);
});

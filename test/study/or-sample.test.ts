// The notebooks' one "whole or a document sample" loader (notebooks 06 and 07 under `--budget`) and the one
// headers-else-ICT choice of query source.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeamlabError } from "../../src/core/errors";
import { headersElseIct, isNoHeadingsError } from "../../src/retrieval/headers-else-ict";
import { loadOrSample, loadRetrievalInputs, loadRetrievalOrSample } from "../../src/study/inputs";
import { loadTypedOrSample } from "../../src/study/type-queries";

/** 40 documents of prose; with `headings`, each has two `##` sections. */
function corpusFolder(headings: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-or-sample-"));
  for (let d = 0; d < 40; d++) {
    const prose = (s: number) =>
      `Document ${d} part ${s} describes how the river turned west. The boat followed it for ${d + s} miles. ` +
      `Nobody on board had seen the valley before, and the map said nothing about it.`;
    const text = headings
      ? `# Doc ${d}\n\n## Why the river turned ${d}\n\n${prose(0)}\n\n## Where the boat went ${d}\n\n${prose(1)}\n`
      : `${prose(0)}\n\n${prose(1)}\n`;
    writeFileSync(join(dir, `doc${String(d).padStart(2, "0")}.md`), text);
  }
  return dir;
}

test("loadOrSample loads the whole inputs for documentChars all or nothing, without reading a sample", () => {
  let sampled = 0;
  const whole = () => "whole";
  const sample = () => {
    sampled++;
    return "sample";
  };
  assert.equal(loadOrSample("/no/such/corpus", undefined, whole, sample), "whole");
  assert.equal(loadOrSample("/no/such/corpus", "all", whole, sample), "whole");
  assert.equal(sampled, 0);
});

test("loadOrSample refuses a documentChars that is neither all nor a number, naming the parameter", () => {
  assert.throws(
    () =>
      loadOrSample(
        "/no/such/corpus",
        "lots",
        () => 0,
        () => 1,
      ),
    (error: unknown) =>
      error instanceof SeamlabError && /^the documentChars parameter must be "all" or a number/.test(error.message),
  );
});

test("06's and 07's loaders read the same seeded document sample, described alike, with no queries", () => {
  const dir = corpusFolder(true);
  try {
    const retrieval = loadRetrievalOrSample(dir, undefined, { documentChars: 2_000 });
    const typed = loadTypedOrSample(dir, "headers", [], undefined, 2_000);
    assert.ok(retrieval.docs.length > 0 && retrieval.docs.length < 40, "a sample, not the corpus");
    assert.deepEqual(
      typed.docs.map((d) => d.id),
      retrieval.docs.map((d) => d.id),
    );
    assert.equal(typed.description, retrieval.description);
    assert.match(
      retrieval.description,
      /: 40 documents, [\d,]+ characters \(a seeded stratified sample of \d+ documents/,
    );
    assert.equal(retrieval.queries.length + typed.queries.length, 0);
    assert.equal(typed.typed.length, typed.docs.length, "07's sample is typed");
    const whole = loadRetrievalOrSample(dir, undefined, { documentChars: "all" });
    assert.equal(whole.docs.length, 40);
    assert.ok(whole.queries.length > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("with no queries given, a corpus with headings gets header queries and one without gets ICT, each saying why", () => {
  const withHeadings = corpusFolder(true);
  const plain = corpusFolder(false);
  try {
    const headers = loadRetrievalInputs(withHeadings);
    assert.equal(headers.queryKind, "header");
    assert.match(headers.querySource, /\(chosen because the corpus has markdown headings with prose under them\)$/);
    const ict = loadRetrievalInputs(plain);
    assert.equal(ict.queryKind, "ict");
    assert.match(ict.querySource, /chosen because the corpus has no markdown headings with prose under them/);
  } finally {
    rmSync(withHeadings, { recursive: true, force: true });
    rmSync(plain, { recursive: true, force: true });
  }
});

test("headersElseIct falls back to ICT only when the corpus has no headings, and rethrows any other error", () => {
  const noHeadings = new SeamlabError("corpus x has no markdown headings with prose under them at levels ##");
  const tried: string[] = [];
  const chosen = headersElseIct((source) => {
    tried.push(source);
    if (source === "headers") throw noHeadings;
    return 7;
  });
  assert.deepEqual(chosen, { value: 7, source: "ict" });
  assert.deepEqual(tried, ["headers", "ict"]);
  assert.deepEqual(
    headersElseIct(() => 3),
    { value: 3, source: "headers" },
  );
  assert.ok(isNoHeadingsError(noHeadings));
  assert.ok(!isNoHeadingsError(new Error("no markdown headings")), "only a SeamlabError is a refusal");
  assert.throws(
    () =>
      headersElseIct(() => {
        throw new SeamlabError("the labelled file is empty");
      }),
    /the labelled file is empty/,
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import { findHeadings } from "../../src/text/headings";
import { buildFactsCorpus } from "../../scripts/facts-corpus";

test("the facts corpus weaves seeded facts into fastify-docs' sections, each located exactly and unique", () => {
  const original = loadCorpus("fastify-docs").docs;
  const set = buildFactsCorpus(original, { count: 60, seed: 5 });
  assert.equal(set.queries.length, 60);
  assert.equal(set.docs.length, original.length);
  const all = set.docs.map((d) => d.text).join("\n");
  set.queries.forEach((q, i) => {
    const doc = set.docs.find((d) => d.id === q.doc)!;
    const answer = doc.text.slice(q.gold[0].start, q.gold[0].end);
    assert.equal(answer, set.rows[i].answer_span);
    assert.equal(all.indexOf(answer), all.lastIndexOf(answer), "an answer occurs once");
    // the question names the invented component its answer names
    const component = /the (\w+) /.exec(
      q.text.replace(/^(What|Which|How) is the [\w ]+ of |^Which [\w ]+ does /, "the "),
    );
    assert.ok(component && answer.includes(component[1]), `${q.text} / ${answer}`);
    // it sits under a ## or ### heading, and the question does not repeat that heading
    const headings = findHeadings(doc.text).filter((h) => h.lineStart < q.gold[0].start && h.level >= 2);
    assert.ok(headings.length > 0, q.text);
    const heading = headings[headings.length - 1].text.toLowerCase().replace(/[^\p{L}\p{N} ]/gu, "");
    assert.ok(!new RegExp(`\\b${heading}\\b`, "u").test(q.text.toLowerCase()), `${q.text} / ${heading}`);
  });
  assert.ok(
    set.positions.first > 0 && set.positions.middle > 0 && set.positions.last > 0,
    JSON.stringify(set.positions),
  );
  const again = buildFactsCorpus(original, { count: 60, seed: 5 });
  assert.deepEqual(again.rows, set.rows, "seeded: the same facts again");
});

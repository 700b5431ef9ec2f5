import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { squadArticleSet } from "../../src/corpus/squad-articles";

test("an XQuAD-style set joins each article's paragraphs and shifts every answer to the joined text", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-squad-"));
  const file = join(dir, "tiny-squad.json");
  writeFileSync(
    file,
    JSON.stringify({
      data: [
        {
          title: "Harbour",
          paragraphs: [
            {
              context: "The harbour opened in 1850.",
              qas: [{ id: "q1", question: "When?", answers: [{ text: "1850", answer_start: 22 }] }],
            },
            {
              context: "Ships came from Oslo.",
              qas: [{ id: "q2", question: "From where?", answers: [{ text: "Oslo", answer_start: 16 }] }],
            },
          ],
        },
        {
          paragraphs: [
            {
              context: "A second article.",
              qas: [{ id: "q3", question: "Which?", answers: [{ text: "second", answer_start: 2 }] }],
            },
          ],
        },
      ],
    }),
  );
  try {
    const set = squadArticleSet(file);
    assert.deepEqual(
      set.docs.map((d) => [d.id, d.text]),
      [
        ["Harbour", "The harbour opened in 1850.\n\nShips came from Oslo."],
        ["article1", "A second article."],
      ],
    );
    const slice = (i: number) => {
      const g = set.queries[i].gold[0];
      return set.docs.find((d) => d.id === g.doc)!.text.slice(g.start, g.end);
    };
    assert.deepEqual([slice(0), slice(1), slice(2)], ["1850", "Oslo", "second"]);
    assert.equal(set.report.offsetsCorrected, 0, "shifted offsets point at their answers");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

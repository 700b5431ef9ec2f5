import { test } from "node:test";
import assert from "node:assert/strict";
import { tableHtml } from "../../src/notebook/format";
import { FOLDED_ROWS, FOLD_OVER_ROWS, foldedTableHtml } from "../../src/report/table-fold";

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, note: i === 3 ? "<tr> in a cell" : "x" }));
const html = (n: number) => foldedTableHtml(tableHtml({ columns: ["id", "note"], rows: rows(n), digits: 0 }), n);

test("a short table is shown whole in its wrapper, with nothing folded", () => {
  const out = html(FOLD_OVER_ROWS);
  assert.ok(out.startsWith('<div class="table-wrap"><table'));
  assert.ok(!out.includes("fold"));
});

test("a long table keeps every row in the page and folds those past the first ten behind show all", () => {
  const out = html(40);
  assert.equal(out.split("<tr").length - 1, 1 + 40, "the header row and every body row");
  assert.equal(out.split('<tr class="fold">').length - 1, 40 - FOLDED_ROWS);
  assert.ok(out.includes("<td>&lt;tr&gt; in a cell</td>"), "escaped cell text is not taken for a row");
  // The first ten body rows stay unfolded; the eleventh is the first folded one.
  const body = out.slice(out.indexOf("<tbody>"));
  const tags = [...body.matchAll(/<tr( class="fold")?>/g)].map((m) => Boolean(m[1]));
  assert.deepEqual(tags.slice(0, FOLDED_ROWS + 1), [...Array(FOLDED_ROWS).fill(false), true]);
  assert.match(out, /<details class="table-fold"><summary><span class="when-closed">show all 40 rows<\/span>/);
  assert.ok(out.endsWith("</details></div>"));
});

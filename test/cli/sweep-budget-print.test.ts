// The sweep's lever table (overlap against neighbours and parents at one context budget): a lever whose window or
// parent did not fit the budget says so, instead of a hit rate that reads as the lever's worth.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeLevers, leverJson } from "../../src/cli/sweep-budget-print";
import { leverVerdicts } from "../../src/experiment/sweep-expand";
import { leverVerdictText } from "../../src/study/context-budget";
import type { CostedRow } from "../../src/experiment/run";
import { costedRow } from "../helpers/costed-row";

const budget = { amount: 2000, unit: "chars" as const };

/** A row at the budget, with neighbours or parents, and the queries whose best window was over the budget. */
function leverRow(hits: string, retrieval: { expand?: number; parents?: number }, over = 0): CostedRow {
  const row = costedRow(0, hits, 10);
  return {
    ...row,
    config: { ...row.config, retrieval: { ...row.config.retrieval, contextBudget: budget, ...retrieval } },
    retrieval: {
      ...row.retrieval,
      queries: hits.length,
      meanContextChunks: 1,
      meanContextChars: 900,
      meanContextTokens: null,
      ...(over > 0 ? { queriesTopOverBudget: over } : {}),
    },
  } as CostedRow;
}

test("a lever whose window was over the budget for some queries marks its hit rate and says why; for all, 'no fit'", () => {
  const [lever] = leverVerdicts([
    leverRow("1101", {}),
    leverRow("1001", { expand: 2 }, 2),
    leverRow("0000", { parents: 8000 }, 4),
  ]);
  const text = describeLevers(lever).join("\n");
  assert.match(text, /overlap 0 \+ ±2 neighbours .* 50\.0 \* /);
  assert.match(text, /overlap 0 \+ 8000-char parents .* no fit \* /);
  assert.match(
    text,
    /\* overlap 0 \+ ±2 neighbours: for 2 of 4 queries the best chunk's window alone is over the budget of 2,000 chars/,
  );
  assert.match(text, /\* overlap 0 \+ 8000-char parents: for every one of the 4 queries .* says nothing of the lever/);
  assert.doesNotMatch(text, /overlap 0 {2,}.*\*/, "the plain row, whose chunks all fit, is not marked");
  assert.deepEqual(leverJson(lever).topOverBudget, [0, 2, 4]);
  // The report's notebooks say it after the verdict too.
  assert.match(
    leverVerdictText(lever).text,
    /\. overlap 0 \+ ±2 neighbours: for 2 of 4 queries .* parents: for every one/,
  );
});

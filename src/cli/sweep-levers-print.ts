import { leverOverBudget, leverOverBudgetNotes, type LeverVerdict } from "../experiment/sweep-expand";
import { contextBudgetText } from "../retrieval/context-budget";
import { percentNumber } from "../stats/format";
import { costCells, fromBestCells, plainVerdict, verdictJson } from "./sweep-budget-print";

// The sweep's printing of overlap against neighbour expansion and parent documents at one context budget.

export function describeLevers(lever: LeverVerdict): string[] {
  const name = (i: number) => lever.names[i];
  return [
    "",
    `${lever.splitter} size ${lever.size}: overlap or neighbours? Each lever at the same context budget, ` +
      `${contextBudgetText(lever.contextBudget)} per query (cheapest = fewest vectors stored)`,
    "lever                            vectors  index MB  prompt tok  chunks/q  hit rate %  best-it (pts) [paired 95% CI]  status",
    ...lever.rows.map((row, i) =>
      [
        name(i).padEnd(31),
        ...costCells(lever.costs[i], row.retrieval.meanContextChunks),
        hitRateCell(lever, i).padStart(10),
        ...fromBestCells(lever.decision, i),
      ].join("  "),
    ),
    ...leverOverBudgetNotes(lever).map((note) => `  * ${note}`),
    `verdict (which lever, paired): ${plainVerdict(lever.decision, name)}`,
  ];
}

/** The hit rate, marked (*) when the budget emptied some prompts, or "no fit" when it emptied every one. */
function hitRateCell(lever: LeverVerdict, i: number): string {
  const over = leverOverBudget(lever, i);
  if (over > 0 && over === lever.rows[i].retrieval.queries) return "no fit *";
  return `${percentNumber(lever.decision.configs[i].rate)}${over > 0 ? " *" : ""}`;
}

export function leverJson(lever: LeverVerdict): Record<string, unknown> {
  const name = (i: number) => lever.names[i];
  return {
    splitter: lever.splitter,
    size: lever.size,
    contextBudget: lever.contextBudget,
    levers: lever.names,
    // per lever, the queries whose best chunk's window or parent alone was over the budget (an empty prompt)
    topOverBudget: lever.rows.map((_, i) => leverOverBudget(lever, i)),
    costs: lever.costs,
    decision: lever.decision,
    ...verdictJson(lever.decision, name),
  };
}

// The sweep's table cells shared by its printers, and its printing at an equal context budget: the size x overlap
// table with both costs (index and prompt) and each config's plain hit rate@k beside its hit rate at the budget, and
// overlap against neighbour expansion and parent documents (the levers).
import type { GridVerdict, SweepCurve } from "../experiment/sweep";
import { leverOverBudget, leverOverBudgetNotes, type LeverVerdict } from "../experiment/sweep-expand";
import { verdictHeadline, verdictText } from "../experiment/verdict";
import type { Decision } from "../stats/non-inferiority";
import { contextBudgetText } from "../retrieval/context-budget";
import { percentNumber, signedPoints, thousands } from "../stats/format";

/** ", context budget 5,000 chars" for a curve or grid judged at a budget; "" for plain hit@k. */
export function budgetSuffix(judged: SweepCurve | GridVerdict): string {
  return judged.contextBudget ? `, context budget ${contextBudgetText(judged.contextBudget)} per query` : "";
}

export function plainVerdict(decision: Decision, name: (i: number) => string): string {
  return verdictText(decision, name).replace(/\*\*/g, "");
}

export function verdictJson(decision: Decision, name: (i: number) => string) {
  return { verdict: plainVerdict(decision, name), verdictShort: verdictHeadline(decision, name) };
}

/** The last two cells of a verdict table's row: "best − it [paired 95% CI]" and the status. */
export function fromBestCells(decision: Decision, i: number): string[] {
  const c = decision.configs[i];
  const gap = `${percentNumber(c.fromBest.diff).padStart(5)} [${signedPoints(c.fromBest.low)}, ${signedPoints(c.fromBest.high)}]`;
  return [gap.padEnd(30), i === decision.best ? "best" : c.status];
}

export function configCells({ size, overlap }: { size: number; overlap: number }): string[] {
  return [String(size).padStart(4), String(overlap).padStart(7), `${Math.round((100 * overlap) / size)}%`.padStart(5)];
}

type Cost = GridVerdict["costs"][number];

/** The vectors, index MB, prompt tokens and chunks per query cells of a row judged at a context budget. */
export function costCells(cost: Cost, meanContextChunks: number): string[] {
  return [
    thousands(cost.vectors).padStart(7),
    (cost.storageBytes / 1e6).toFixed(1).padStart(8),
    (cost.promptTokens === null ? "-" : thousands(Math.round(cost.promptTokens))).padStart(10),
    meanContextChunks.toFixed(1).padStart(8),
  ];
}

/** The heading and table of a size x overlap verdict at a context budget. */
export function budgetGridTable(grid: GridVerdict): string[] {
  const budget = grid.contextBudget;
  if (!budget) return [];
  const plainHeader = `plain hit rate@${grid.k} %`;
  return [
    "",
    `${grid.splitter}, size x overlap at an equal context budget: the top chunks in rank order up to ` +
      `${contextBudgetText(budget)} per query (cheapest = fewest vectors stored; the prompt is capped alike)`,
    `size  overlap  share  vectors  index MB  prompt tok  chunks/q  hit rate %  ${plainHeader}  ` +
      "best-it (pts) [paired 95% CI]  status",
    ...grid.rows.map((row, i) => {
      const plain = grid.plainHitRates?.[i];
      return [
        ...configCells(row.config.splitter),
        ...costCells(grid.costs[i], row.retrieval.meanContextChunks),
        percentNumber(grid.decision.configs[i].rate).padStart(10),
        (plain === null || plain === undefined ? "-" : percentNumber(plain)).padStart(plainHeader.length),
        ...fromBestCells(grid.decision, i),
      ].join("  ");
    }),
  ];
}

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

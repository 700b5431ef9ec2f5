// A notebook as `--budget` reduced it: a note under the parameters, and the code cells of sections left out (tagged
// `budget:<section>`) replaced by one line each saying so.
import { cellTags, type Cell, type Notebook } from "./nbformat";
import { workMetadata } from "./plan/declared-work";

export interface NotebookBudgetPlan {
  /** Parameters injected into this notebook only (over the report's). */
  parameters?: Record<string, unknown>;
  /** Sections whose code cells are left out. */
  skip?: readonly string[];
  /** Markdown shown under the parameters: what ran, and why. */
  note?: string;
  /** Not run at all: the page keeps the title and the note. */
  skipAll?: boolean;
  /** The plan's estimate of this notebook's run (kernel start included), for the ETA and its time limit. */
  estimatedMs?: number;
  /** Stop the notebook past this many ms (kernel start included) and publish the report without it. */
  timeLimitMs?: number;
}

const noteCell = (text: string, tag: string): Cell => ({
  cell_type: "markdown",
  source: text,
  metadata: { tags: [tag] },
});

export function applyBudgetPlan(notebook: Notebook, plan: NotebookBudgetPlan): Notebook {
  const note = plan.note ? [noteCell(`> **Budget.** ${plan.note}`, "budget-note")] : [];
  if (plan.skipAll) {
    const title = notebook.cells.find((cell) => cell.cell_type === "markdown");
    return {
      ...notebook,
      cells: [...(title ? [title] : []), ...note],
      metadata: {
        ...notebook.metadata,
        seamlab: { executed_at: new Date().toISOString(), duration_ms: 0, status: "ok", budget: "not run" },
      },
    };
  }
  const skip = new Set(plan.skip ?? []);
  const sections = workMetadata(notebook)?.sections ?? {};
  const cells: Cell[] = [];
  const noted = new Set<string>();
  for (const cell of notebook.cells) {
    const section = cellTags(cell)
      .find((t) => t.startsWith("budget:"))
      ?.slice("budget:".length);
    if (cell.cell_type === "code" && section !== undefined && skip.has(section)) {
      if (!noted.has(section)) {
        noted.add(section);
        cells.push(
          noteCell(
            `*Left out under \`--budget\`: ${sections[section]?.name ?? section} (see the budget note at the top).*`,
            "budget-skipped",
          ),
        );
      }
      continue;
    }
    cells.push(cell);
    if (cellTags(cell).includes("parameters")) cells.push(...note);
  }
  return { ...notebook, cells };
}

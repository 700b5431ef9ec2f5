// Notebook parameters read the way the CLI reads the same flags (`report --context-budget 1200t` means what `sweep` does).
import { SeamlabError } from "../core/errors";
import { parseContextBudget, type ContextBudget } from "../retrieval/context-budget";

/** The `contextBudget` parameter: "auto" or undefined (the median size × k), a number, or "5000c", "1200t". */
export function contextBudgetParameter(value: string | number | undefined): ContextBudget | undefined {
  if (value === undefined || value === "auto") return undefined;
  const text = typeof value === "number" ? String(value) : value;
  try {
    const budget = parseContextBudget(text, "chars");
    if (budget === null)
      throw new SeamlabError(
        `${text} turns the budget off, but the size comparison is always made at an equal budget (plain hit@k ` +
          `favours large chunks); give a number, or "auto".`,
      );
    return budget;
  } catch (error) {
    if (!(error instanceof SeamlabError)) throw error;
    throw new SeamlabError(`the contextBudget parameter: ${error.message}`);
  }
}

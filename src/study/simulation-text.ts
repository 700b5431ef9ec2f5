// The elbow simulation's cells as text. Apart from simulation.ts so that the stored run (simulation-store.ts), which
// hashes every file the simulation's numbers come from, is not made stale by a change in how numbers are printed.
import { markdownTable, pct } from "./format";
import type { SimulationCell } from "./simulation";

/** One row per curve x query count, the three rules side by side (for a table). */
export function simulationTableRows(cells: readonly SimulationCell[]): Record<string, string | number>[] {
  const rows = new Map<string, Record<string, string | number>>();
  for (const cell of cells) {
    const id = `${cell.curve}|${cell.queries}`;
    if (!rows.has(id)) rows.set(id, { "true curve": cell.curve, queries: cell.queries });
    const row = rows.get(id) as Record<string, string | number>;
    const name = cell.rule === "non-inferiority" ? "paired rule" : cell.rule === "plateau" ? "plateau" : "Kneedle";
    row[`${name} wrong`] = pct(cell.wrong);
    row[`${name} undecided`] = pct(cell.undecided);
    if (cell.rule === "non-inferiority") row[`${name} leaning`] = pct(cell.leaning);
    row[`${name} extra index`] = `${cell.extraIndexPct.toFixed(1)}%`;
  }
  return [...rows.values()];
}

/** The table as GitHub markdown, numbers right-aligned (for docs/verdict.md and the script's output). */
export function simulationMarkdown(cells: readonly SimulationCell[]): string {
  const rows = simulationTableRows(cells);
  return rows.length === 0 ? "" : markdownTable(rows, (c) => (c === "true curve" ? "---" : "---:"));
}

/** The paired rule's worst wrong-pick rate over the table, against the 5% target. */
export function simulationFinding(cells: readonly SimulationCell[]): string {
  const paired = cells.filter((c) => c.rule === "non-inferiority");
  const worst = Math.max(...paired.map((c) => c.wrong));
  const plateau = Math.max(...cells.filter((c) => c.rule === "plateau").map((c) => c.wrong));
  const kneedle = Math.max(...cells.filter((c) => c.rule === "kneedle").map((c) => c.wrong));
  const leaning = paired.map((c) => c.leaning);
  return (
    `The paired rule's worst wrong-pick rate over every shape and query count here: **${pct(worst)}** ` +
    `(target: at most 5%${worst <= 0.05 ? ", met" : ", **missed**"}; a leaning verdict is not a pick, and it leans ` +
    `in ${pct(Math.min(...leaning))} to ${pct(Math.max(...leaning))} of sweeps); the plateau rule's worst is ` +
    `${pct(plateau)}, Kneedle's ${pct(kneedle)}.`
  );
}

// Notebook 07's "fix boundaries before buying overlap" is advice to switch to the `structure` splitter, so it is given
// only when that splitter is not shown worse at retrieval than the page's other splitters, paired on the same queries.
import type { Doc, Query } from "../core/types";
import type { ExperimentConfig } from "../experiment/grid";
import { runGrid, type CostedRow } from "../experiment/run";
import { compareRows } from "../experiment/sweep";
import type { PairedComparison } from "../stats/paired";
import { pText, percentNumber, thousands } from "../stats/format";
import { pairedShown, signedInterval, signedPointsText } from "./format";
import { studySweepInputs } from "./sweep";

export const STRUCTURE_SPLITTER = "structure";

/** `comparison`: structure (A) against the other (B), on the same queries. */
export type BoundaryVersus = ReturnType<typeof boundaryVersus>;

export type BoundaryCheck = Awaited<ReturnType<typeof runBoundaryCheck>>;

export function boundaryVersus(other: string, comparison: PairedComparison, ratios: [number, number]) {
  const [structureIndexRatio, otherIndexRatio] = ratios;
  return { other, comparison, shown: pairedShown(comparison), structureIndexRatio, otherIndexRatio };
}

/** Runs `structure` and every other splitter at one setting (BM25, top `k`) on the same queries, cached. */
export async function runBoundaryCheck(
  inputs: { sweepDocs: readonly Doc[]; queries: readonly Query[] },
  splitters: readonly string[],
  setting: { size: number; overlap: number; k: number },
) {
  const others = [...new Set(splitters)].filter((s) => s !== STRUCTURE_SPLITTER);
  const { size, overlap, k } = setting;
  const configs: ExperimentConfig[] = [STRUCTURE_SPLITTER, ...others].map((splitter) => ({
    splitter: { splitter, size, overlap, unit: "chars" },
    retrieval: { k },
  }));
  const run = async () => {
    const gridInputs = studySweepInputs({ docs: inputs.sweepDocs, queries: inputs.queries }, configs);
    return (await runGrid(gridInputs, configs, { workers: 0, quiet: true, progressLabel: "boundary check" })).rows;
  };
  const [structure, ...rest]: CostedRow[] = others.length === 0 ? [] : await run();
  const versus = rest.map((row, i) =>
    boundaryVersus(others[i], compareRows(structure, row), [structure.seams.indexRatio, row.seams.indexRatio]),
  );
  return { size, overlap, k, versus };
}

const ratio = (x: number) => `${x.toFixed(2)}x`;

/** "vs `langchain`: −5.3 points [−7.1, −3.6] of hit rate@5, 12 wins and 80 losses, McNemar p < 0.001". */
function versusText(v: BoundaryVersus, k: number): string {
  const c = v.comparison;
  return (
    `vs \`${v.other}\`: ${signedPointsText(c.diff)} points ${signedInterval(c.diffCI.low, c.diffCI.high)} ` +
    `of hit rate@${k} (${percentNumber(c.hitRateA)}% against ` +
    `${percentNumber(c.hitRateB)}%), ${thousands(c.wins)} queries won and ${thousands(c.losses)} lost, ` +
    `McNemar ${pText(c.mcnemarP)}; index ${ratio(v.structureIndexRatio)} against ${ratio(v.otherIndexRatio)} the corpus`
  );
}

/** "Fix boundaries first" only when `structure` is shown worse than none of the others; else the loss, named. */
export function boundaryAdvice(check: BoundaryCheck): string {
  const { size, overlap, k, versus } = check;
  if (versus.length === 0) {
    return (
      "- **Boundaries:** no other splitter ran beside `structure` on these queries (the `splitters` parameter), so " +
      "whether its better boundaries cost retrieval here is not measured; add `langchain` to compare before switching."
    );
  }
  const queries = thousands(versus[0].comparison.queries);
  const numbers = versus.map((v) => `  - ${versusText(v, k)}.`).join("\n");
  const worse = versus.filter((v) => v.shown === "worse");
  const setting = `size ${thousands(size)}, overlap ${thousands(overlap)}, BM25 top ${k}, the same ${queries} queries`;
  if (worse.length === 0) {
    return (
      `- **Fix boundaries before buying overlap:** if a splitter cuts code blocks or tables in a real share of seams ` +
      `(the chart above), a structure-aware splitter removes that damage; overlap only hides some of it. On this ` +
      `corpus \`structure\` is not shown worse at retrieval than any splitter it ran against (${setting}; paired, ` +
      `structure first):\n${numbers}`
    );
  }
  const names = worse.map((v) => `\`${v.other}\``).join(", ");
  return (
    `- **Do not switch splitters for boundaries alone here:** \`structure\` damages fewer units, but on the same ` +
    `queries it retrieves worse than ${names} (${setting}; paired, structure first):\n${numbers}\n` +
    `  Fewer cut units did not buy hit rate on this corpus; keep the splitter that retrieves best, and compare ` +
    `again on your own queries (\`seamlab sweep --splitters ${[STRUCTURE_SPLITTER, ...worse.map((v) => v.other)].join(",")} ` +
    `--queries FILE\`) before changing it.`
  );
}

/** `seamlab sweep --export FILE [--force]`: the target checked before the sweep, the file written after it. */
import { SeamlabError } from "../core/errors";
import { lockOutput } from "../core/output-lock";
import type { EvaluationInputs } from "../retrieval/inputs";
import { chosenExport, exportStamp } from "../experiment/export";
import { exportTarget, writeChosenExport, type ExportTarget } from "../experiment/export-file";
import type { SweepResult } from "../experiment/sweep";
import { commaList, type FlagValues } from "./flags";

export const exportHelp = `  --export FILE               write the chosen config to FILE (JSON): the verdict, a reproducibility \
stamp (corpus
                              and query hashes, seamlab version and commit, margin, query source and count), the
                              flags that re-run it, and LangChain JS / Python and LlamaIndex snippets; check it
                              later with seamlab check FILE. Needs one verdict: one --splitter and one --ks value
  --force                     with --export: replace FILE if it is an earlier seamlab export (never another file)`;

/** The export target, refused before any work (a sweep with several verdicts, or a file not to replace). */
export function sweepExportTarget(values: FlagValues): ExportTarget | undefined {
  const path = values.export === undefined ? undefined : String(values.export);
  const target = exportTarget(path, Boolean(values.force));
  if (target === undefined) return undefined;
  if (values["by-type"])
    throw new SeamlabError("--export is not available with --by-type: it exports one verdict; drop one of them.");
  const several = (flag: string) => values[flag] !== undefined && commaList(String(values[flag])).length > 1;
  const flag = ["splitter", "ks"].find(several);
  if (flag)
    throw new SeamlabError(
      `--export writes one verdict, but --${flag} ${String(values[flag])} gives one per value; ` +
        `sweep one --${flag} value to export.`,
    );
  lockOutput(target.path, { flag: "--export", command: "sweep", kind: "file" }); // a second sweep into FILE is refused
  return target;
}

/** Writes the export of a finished sweep and says so on stderr (stdout may be JSON). */
export async function writeSweepExport(
  target: ExportTarget,
  run: { argv: readonly string[]; inputs: EvaluationInputs; result: SweepResult; budgetQueries?: number },
): Promise<void> {
  if (run.result.interrupted) {
    process.stderr.write(`seamlab: interrupted, so nothing was exported to ${target.path}; re-run to finish.\n`);
    return;
  }
  const data = chosenExport({ ...run, ...exportStamp() });
  if (!data) throw new SeamlabError("--export: the sweep gave no verdict to export (no config finished).");
  writeChosenExport(target, data);
  process.stderr.write(
    `seamlab: exported ${data.chosen.name} (${data.verdict.state}) to ${target.path}; check it later with ` +
      `seamlab check ${target.path}; snippets: jq -r .snippets.langchainJs.code ${target.path}\n`,
  );
}

/** `seamlab check chosen.json`: re-runs an export's sweep on the corpus as it is now; does its recommendation hold? */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { projectRoot } from "../core/project";
import { isSquadFile } from "../retrieval/inputs";
import { shellQuote, withFlag, type ChosenExport } from "../experiment/export";
import { compareExports, chosenConfigText } from "../experiment/export-compare";
import { readChosenExport } from "../experiment/export-file";
import { printJson } from "./format";
import { commandArgs, flagOptions } from "./flags";

/** The exit code when the recommendation moved (0: it holds; 2: bad input; 130: interrupted). */
export const RECOMMENDATION_MOVED = 3;

const help = `Usage: seamlab check FILE [--corpus SPEC] [--same-corpus] [--show-sweep] [--json]

Re-runs \`seamlab sweep\` with the flags FILE was exported with (sweep --export FILE), on the corpus as it is
now, and compares the new verdict with the exported one.

  exit 0   the recommendation holds: the same config, the same verdict state (decided, leaning or undecided)
  exit ${RECOMMENDATION_MOVED}   the recommendation moved: the chosen config or the verdict's state changed (printed)
  exit 2   bad input, refused before any work: FILE missing, not JSON, not a seamlab export, damaged or edited,
           or --corpus naming another corpus than FILE's
  exit 130 interrupted

A corpus or query set that changed since the export (other hashes) is reported as information, not refused:
docs change, and the check says whether the choice survives it.

  --corpus SPEC     the corpus to check (default: the one FILE names, resolved from the current folder)
  --same-corpus     --corpus names FILE's corpus at another path (e.g. a CI checkout): check it anyway
  --show-sweep      print the re-run sweep's own output on stderr
  --json            print JSON: holds, moves, notes, the exported and the re-run verdicts
  -h, --help        this help`;

function checkedCorpus(
  file: string,
  exported: ChosenExport,
  given: string | undefined,
  same: boolean,
): string | undefined {
  if (given === undefined) {
    if (same) throw new SeamlabError("--same-corpus goes with --corpus: name the corpus's path as well.");
    return undefined;
  }
  const spec = exported.corpus.spec;
  const path = (s: string) => resolve(s.replace(/[\\/]+$/, ""));
  if (given === spec || path(given) === path(spec) || same) return given;
  // A report's chosen.json names a corpus given by path by its folder's name only: a folder of that name is it.
  if (!/[\\/]/.test(spec) && existsSync(given) && basename(resolve(given)) === spec) return given;
  throw new SeamlabError(
    `${file} was exported from corpus "${exported.corpus.spec}" (hash ${exported.corpus.hash.slice(0, 12)}), ` +
      `but --corpus names "${given}": a verdict on another corpus is not a re-run of this one. Export that ` +
      `corpus's own (seamlab sweep --corpus ${given} --export …), or, if it is the same corpus at another path ` +
      `(a CI checkout), add --same-corpus.`,
  );
}

function runSweep(argv: readonly string[], out: string, showSweep: boolean): Promise<number> {
  const bin = join(projectRoot(), "bin", "seamlab.js");
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, "sweep", ...argv, "--export", out, "--quiet"], {
      stdio: ["ignore", showSweep ? "pipe" : "ignore", "pipe"],
    });
    child.stdout?.on("data", (data) => process.stderr.write(data));
    // The sweep's messages pass through, but not its note on the temporary export (an inner detail of check).
    let pending = "";
    const shown = (line: string) => !line.startsWith("seamlab: exported ");
    child.stderr?.on("data", (data) => {
      const lines = (pending + String(data)).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines.filter(shown)) process.stderr.write(line + "\n");
    });
    // Ctrl-C reaches the child too (same process group); it stops cleanly and says so.
    const ignore = () => {};
    process.on("SIGINT", ignore);
    child.on("error", fail);
    child.on("close", (code, signal) => {
      if (pending && shown(pending)) process.stderr.write(pending + "\n");
      process.off("SIGINT", ignore);
      done(code ?? (signal === "SIGINT" ? 130 : 1));
    });
  });
}

export async function run(argv: string[]): Promise<number> {
  const args = await commandArgs(argv, flagOptions(["corpus"], ["same-corpus", "show-sweep", "json"]), help, true);
  if (!args) return 0;
  const { values, positionals } = args;
  if (positionals.length !== 1)
    throw new SeamlabError(
      `check needs one exported file, e.g. seamlab check chosen.json (got ${positionals.length === 0 ? "none" : positionals.join(", ")}).`,
    );
  const file = positionals[0];
  const before = readChosenExport(file);
  const corpus = checkedCorpus(file, before, values.corpus, Boolean(values["same-corpus"]));
  // the export's flags, on another path of the corpus when --corpus gave one
  const exported = before.rerun.argv;
  const squad = exported.some((item, i) => item === "--queries" && isSquadFile(exported[i + 1] ?? ""));
  const rerun = corpus === undefined || squad ? [...exported] : withFlag(exported, "corpus", corpus);
  const dir = mkdtempSync(join(tmpdir(), "seamlab-check-"));
  try {
    const out = join(dir, "rerun.json");
    if (!values.json) process.stderr.write(`seamlab: re-running seamlab sweep ${rerun.join(" ")}\n`);
    const code = await runSweep(rerun, out, Boolean(values["show-sweep"]));
    if (code !== 0) {
      if (code === 130) return 130;
      throw new SeamlabError(`the re-run sweep failed (exit ${code}; its message is above), so nothing was checked.`);
    }
    const after = readChosenExport(out);
    const comparison = compareExports(before, after);
    const acceptCommand = ["seamlab", "sweep", ...rerun, "--export", file, "--force"].map(shellQuote).join(" ");
    if (values.json) {
      printJson({
        file,
        holds: !comparison.moved,
        exitCode: comparison.moved ? RECOMMENDATION_MOVED : 0,
        moves: comparison.moves,
        notes: comparison.notes,
        exported: { chosen: before.chosen, verdict: before.verdict, corpus: before.corpus, queries: before.queries },
        now: { chosen: after.chosen, verdict: after.verdict, corpus: after.corpus, queries: after.queries },
        rerun: after.rerun.command,
        accept: comparison.moved ? acceptCommand : null,
      });
    } else {
      const lines = comparison.moved
        ? [
            `MOVED: the recommendation in ${file} no longer holds`,
            ...comparison.moves.map((m) => `  ${m}`),
            `  to accept the new one: ${acceptCommand}`,
          ]
        : [`holds: ${chosenConfigText(after.chosen)} (${after.verdict.state}): ${after.verdict.headline}`];
      for (const note of comparison.notes) lines.push(`  note: ${note}`);
      process.stdout.write(lines.join("\n") + "\n");
    }
    return comparison.moved ? RECOMMENDATION_MOVED : 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

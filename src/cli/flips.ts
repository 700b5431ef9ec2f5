/** `seamlab flips`: the queries config B wins and loses against config A, with gold spans, seams and top-k chunks. */
import { resolve } from "node:path";
import { writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import { lockOutput } from "../core/output-lock";
import { computeFlips } from "../study/flips";
import { flipsPageHtml, flipsText } from "../notebook/flips";
import { pText } from "../stats/format";
import { pct } from "../study/format";
import {
  describeConfig,
  evaluationOptionsFrom,
  loadEvaluationInputs,
  retrievalFlags,
  retrievalHelp,
} from "./flag-groups";
import { commandFlags, flagOptions, intFlag, optionalIntFlag } from "./flags";
import { configPairFlags, configPairFromFlags } from "./config-spec";
import { printJson } from "./format";
import { existsSync, readFileSync, statSync } from "node:fs";

const help = `Usage: seamlab flips [--corpus SPEC] [--queries headers|ict|FILE] --a splitter:size:overlap[:unit] \
--b splitter:size:overlap[:unit]
                    [--k 5] [--limit N] [--context N] [--html out.html] [--force] [--json]

Paired on the same queries: the ones B hits and A misses (B wins) and the ones A hits and B misses (B loses).
Each shows its gold span with each side's chunk boundaries (⟨ a chunk starts, ⟩ a chunk ends; [[gold]] in text),
the nearest boundary to the gold span (or how many fall inside it), and each side's top-k chunks.

  --a SPEC, --b SPEC   the two configs, e.g. --a langchain:1000:0 --b langchain:1000:150
  --limit N            show at most N wins and N losses (default: all; the counts always cover every query)
  --context N          characters shown either side of the gold span, 0 to 2,000 (default 80)
  --html FILE          also write an HTML page (all text escaped); --force replaces a page flips wrote before
${retrievalHelp}`;

/** A page this command wrote carries this marker, so --force never replaces another file. */
const PAGE_MARKER = '<meta name="generator" content="seamlab flips">';

function checkHtmlTarget(path: string, force: boolean): string {
  const full = resolve(path);
  if (existsSync(full)) {
    if (statSync(full).isDirectory()) throw new SeamlabError(`--html ${path} is a folder; give a file name.`);
    if (!force) throw new SeamlabError(`--html ${path} already exists; pass --force to replace it.`);
    if (!readFileSync(full, "utf8").includes(PAGE_MARKER))
      throw new SeamlabError(`--html ${path} exists and was not written by seamlab flips; it is never replaced.`);
  }
  lockOutput(path, { flag: "--html", command: "flips", kind: "file" }); // a second flips into FILE is refused
  return full;
}

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    { ...retrievalFlags, ...configPairFlags, ...flagOptions(["limit", "context", "html"], ["force"]) },
    help,
  );
  if (!values) return 0;
  const [configA, configB] = configPairFromFlags(values, "--a langchain:1000:0 --b langchain:1000:150");
  const options = evaluationOptionsFrom(values);
  const limit = optionalIntFlag(values, "limit", { min: 1, max: 10_000_000, unit: "queries" });
  const context = intFlag(values, "context", 80, { min: 0, max: 2000, unit: "chars" });
  if (values.force && values.html === undefined)
    throw new SeamlabError("--force goes with --html; drop it or add --html.");
  const html = values.html === undefined ? undefined : checkHtmlTarget(values.html, Boolean(values.force));
  const inputs = loadEvaluationInputs(values);
  const { summary: counts, rows } = await computeFlips(inputs.docs, inputs.queries, configA, configB, {
    ...options,
    context,
  });
  const shown =
    limit === undefined
      ? rows
      : [
          ...rows.filter((r) => r.outcome === "b wins").slice(0, limit),
          ...rows.filter((r) => r.outcome === "b loses").slice(0, limit),
        ];
  const nameA = describeConfig(configA);
  const nameB = describeConfig(configB);
  const lines = [
    `corpus ${inputs.corpus}: ${inputs.queryLabel}, k=${options.k}, ${options.retriever}`,
    `A ${nameA}: hit rate ${pct(counts.hitRateA)}; B ${nameB}: hit rate ${pct(counts.hitRateB)}`,
    `B wins ${counts.wins} (B hits, A misses), B loses ${counts.losses} (A hits, B misses), ties ${counts.ties}; ` +
      `exact McNemar ${pText(counts.mcnemarP)}` +
      (shown.length < rows.length ? `; showing ${shown.length} of ${rows.length} (--limit ${limit})` : ""),
  ];
  if (html) {
    const page = flipsPageHtml(
      { title: `Queries that flip: ${nameB} against ${nameA}`, lines, summary: counts, nameA, nameB },
      shown,
    ).replace("<head>", `<head>${PAGE_MARKER}`);
    writeFileAtomic(html, page);
  }
  if (values.json) {
    printJson({
      corpus: inputs.corpus,
      queryLabel: inputs.queryLabel,
      k: options.k,
      retriever: options.retriever,
      a: configA,
      b: configB,
      ...counts,
      rows: shown,
    });
  } else {
    process.stdout.write([...lines, flipsText(shown, nameA, nameB)].join("\n") + "\n");
    if (html) process.stdout.write(`\nwrote ${html}\n`);
  }
  return 0;
}

/** `seamlab proxies`: does each query proxy (headers, ICT) lead to the overlap the user's labelled questions lead to? */
import { SeamlabError } from "../core/errors";
import { defaultCorpus } from "../corpus/defaults";
import { validateSplitterConfig } from "../splitters/registry";
import { isLabelledSpec } from "../retrieval/query-source";
import { proxyFinding, proxyRows, runProxyCheck } from "../study/proxies";
import {
  commaList,
  commandFlags,
  flagOptions,
  intFlag,
  intListFlag,
  numberFlag,
  optionalIntFlag,
  stringFlag,
} from "./flags";
import { formatRecords, printJson } from "./format";

const help = `Usage: seamlab proxies --queries FILE [--corpus SPEC] [--splitter NAME] [--size N] [--overlaps LIST] [--k N]
                      [--margin POINTS] [--ict-n N] [--json]

Runs the same overlap sweep with your labelled questions (FILE: CSV/JSONL answer spans, Chroma's CSV or SQuAD JSON)
and with each proxy the corpus can give (header queries where it has ## headings, ICT queries on any prose), then
says per proxy:
  Kendall tau          the rank agreement of the configs' hit rates with the labelled ones (-1 to 1)
  paired agreement     the share of overlaps whose paired status against the best (shown within the margin,
                       unclear, shown worse) is the same with the proxy as with the labelled questions
  labelled set         the overlaps the labelled verdict does not rule out (not shown worse than its best)
  pick inside the set  whether the proxy's pick (the paired rule's) lies in that set
  trust                which proxy to trust, by the rule printed under the table

  --queries FILE      your labelled questions (required; 50 to 200 are enough to check a proxy)
  --corpus SPEC       the corpus (default: the markdown default corpus); a SQuAD file brings its own documents
  --splitter NAME     the splitter (default langchain); --size N (default 1000)
  --overlaps LIST     overlaps to sweep (default 0,50,100,200,400); --k N: hit rate@k (default 5)
  --margin POINTS     the paired verdict's margin in points of hit rate (default 1)
  --ict-n N           ICT queries to sample (default 500, or every usable sentence when fewer)
  --json              print the check as JSON
  -h, --help          this help`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    flagOptions(["corpus", "queries", "splitter", "size", "overlaps", "k", "margin", "ict-n"], ["json"]),
    help,
  );
  if (!values) return 0;
  const splitter = stringFlag(values, "splitter", "langchain");
  if (commaList(splitter).length !== 1) throw new SeamlabError(`--splitter takes one splitter, got "${splitter}".`);
  const size = intFlag(values, "size", 1000, { min: 1, max: 1_000_000, unit: "chars" });
  const overlaps = intListFlag(values, "overlaps", [0, 50, 100, 200, 400], { min: 0, max: 1_000_000, unit: "chars" });
  if (overlaps.length < 2) throw new SeamlabError("--overlaps must list at least two overlaps to compare.");
  const tooLarge = overlaps.find((o) => o >= size);
  if (tooLarge !== undefined)
    throw new SeamlabError(`--overlaps ${tooLarge} is not smaller than --size ${size}; every overlap must be.`);
  for (const overlap of overlaps) validateSplitterConfig({ splitter, size, overlap });
  const k = intFlag(values, "k", 5, { min: 1, max: 1000, unit: "chunks" });
  const margin = numberFlag(values, "margin", 1, { min: 0, max: 99, exclusiveMin: true, unit: "points" }) / 100;
  const ictCount = optionalIntFlag(values, "ict-n", { min: 1, max: 1_000_000, unit: "queries" });
  const queries = stringFlag(values, "queries", "");
  if (queries === "" || !isLabelledSpec(queries))
    throw new SeamlabError(
      `--queries must name your labelled questions (a CSV, JSONL or SQuAD file)${queries ? `, not "${queries}"` : ""}: ` +
        "the proxies (headers, ICT) are what this command checks against them.",
    );
  const corpus = values.corpus === undefined ? defaultCorpus("markdown") : stringFlag(values, "corpus");

  const check = await runProxyCheck(corpus, queries, {
    splitter,
    size,
    overlaps: [...overlaps].sort((a, b) => a - b),
    k,
    margin,
    ictCount,
  });
  if (values.json) {
    const { labelled, ...rest } = check;
    printJson({ ...rest, labelled: { label: labelled.label, queries: labelled.queries }, rows: proxyRows(check) });
    return 0;
  }
  const rows = proxyRows(check);
  const table = formatRecords(rows, undefined, Object.keys(rows[0] ?? { proxy: "" }));
  process.stdout.write(`Proxies against ${check.labelled.label} on ${corpus}\n\n${table}\n\n${proxyFinding(check)}\n`);
  return 0;
}

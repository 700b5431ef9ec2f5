/** `seamlab libraries`: every chunking library's splitter on one corpus, measured the same way. */
import { SeamlabError } from "../core/errors";
import { librarySplitters } from "../splitters/libraries";
import { stopLibraryBridge } from "../splitters/library-bridge";
import { validateSplitterConfig } from "../splitters/registry";
import {
  headerQuerySet,
  libraryDisplayRows,
  librarySettings,
  librariesPreset,
  libraryTable,
  type LibraryRow,
  type LibrarySetting,
} from "../study/libraries";
import { createProgress } from "../experiment/progress";
import { formatRecords, printJson, sampleJson } from "./format";
import { readPackageJson } from "../core/project";
import {
  corpusFromFlags,
  describeCorpus,
  refuseEncodingForChars,
  settingFromFlags,
  splitterListFromFlags,
} from "./flag-groups";
import { commandFlags, flagOptions, stringFlag, type FlagValues } from "./flags";
import { characterBudgetSample } from "../corpus/sample";
import { wrapTitleText } from "../charts/theme";

/** The npm packages behind the library splitters (their pinned versions are printed with the table). */
const libraryPackages = ["@llamaindex/core", "@mastra/rag", "@chonkiejs/core", "@langchain/textsplitters"];

/** Each library's size and overlap semantics, wrapped at 116 columns under a 23-column indent. */
const librariesHelp = librarySplitters
  .map((s) => {
    const semantics = [wrapTitleText(s.semantics, 116 - 23)].flat().map((line) => " ".repeat(23) + line);
    return `  ${s.name.padEnd(20)} ${s.api}${s.units.length === 1 ? ` (${s.units[0]} only)` : ""}\n${semantics.join("\n")}`;
  })
  .join("\n");

const help = `Usage: seamlab libraries [--corpus SPEC] [--size N --overlap N --unit chars|tokens] \
[--splitters LIST] [--sample-chars N|all] [--hit-rate] [--json]

Runs every library splitter (and LangChain's RecursiveCharacterTextSplitter, "langchain") over one corpus at one
setting and prints configured against realised overlap, zero-overlap seams with a 95% Wilson CI, lost text,
oversize chunks, sentence pairs kept, chunks, index size, chunks whose embedded text differs from the source, and
BM25 hit rate@5 on header queries when the corpus has "##" or "###" headings. Without --size/--overlap/--unit it
prints two tables: 1000/200 characters and 400/80 tokens (cl100k_base).

  --corpus SPEC      folder, file, glob, default corpus name or npm:<pkg>/<path> (default: moby-dick)
  --size N           chunk size in --unit
  --overlap N        configured overlap in --unit
  --unit U           chars | tokens
  --encoding E       js-tiktoken encoding for token units (default cl100k_base)
  --splitters LIST   comma-separated splitter names (default: every library splitter that counts the unit)
  --sample-chars N   on a corpus over N characters (default 400,000), measure seams on a seeded sample of its
                     documents holding about N characters, stratified by folder and length and named above the
                     tables; the zero-overlap CI is then a cluster bootstrap over the sampled documents. all:
                     every document (libraries are slow: LlamaIndex splits about half a megabyte a second)
  --hit-rate         on a sampled corpus, still compute hit rate@5, which splits every document with every library
                     (retrieval indexes the whole corpus, never a sample); without it the column is left out there
  --json             print JSON instead of tables
  -h, --help         this help

Each library runs in a worker thread with a per-document time limit (SEAMLAB_LIBRARY_TIMEOUT_MS, default 60000);
a library that fails or times out on a document gets a row naming the library and document instead of numbers.
Spans are recovered by ordered search; where a library rewrites text, the span covers the source it came from
and the embedded text is what the library returned (see docs/libraries.md).

What each library's size and overlap mean:
${librariesHelp}`;

/** The settings named by --size/--overlap/--unit (any of them; the others default per unit), or both defaults. */
function settingsFromFlags(values: FlagValues): LibrarySetting[] {
  const given = ["size", "overlap", "unit"].filter((name) => values[name] !== undefined);
  const encoding = values.encoding === undefined ? undefined : stringFlag(values, "encoding");
  if (given.length === 0) return librarySettings.map((s) => (encoding && s.unit === "tokens" ? { ...s, encoding } : s));
  const setting: LibrarySetting = settingFromFlags(values);
  refuseEncodingForChars(values, setting.unit);
  if (encoding) setting.encoding = encoding;
  return [setting];
}

/** Characters the seam columns measure: `--sample-chars N` (default 400,000), or undefined for all. */
function sampleCharsFromFlags(values: FlagValues): number | undefined {
  const text = values["sample-chars"] === undefined ? undefined : stringFlag(values, "sample-chars").trim();
  if (text === undefined) return 400_000;
  if (text === "all") return undefined;
  if (/^\d+$/.test(text) && Number(text) >= 1_000) return Number(text);
  throw new SeamlabError(`--sample-chars must be all or a whole number of characters >= 1,000; got "${text}".`);
}

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    flagOptions(["corpus", "size", "overlap", "unit", "encoding", "splitters", "sample-chars"], ["hit-rate", "json"]),
    help,
  );
  if (!values) return 0;
  const settings = settingsFromFlags(values);
  const splitters = splitterListFromFlags(values);
  for (const splitter of splitters ?? []) for (const s of settings) validateSplitterConfig({ splitter, ...s });
  const sampleChars = sampleCharsFromFlags(values);
  const { spec, corpus } = corpusFromFlags(values);
  const sampled = sampleChars && characterBudgetSample(corpus.docs, sampleChars, { parameter: "--sample-chars" });
  const sample = sampled && sampled.indexes.length < corpus.docs.length ? sampled : undefined;
  // Retrieval indexes the whole corpus: with a sample, hit rate@5 costs every library a split of every document.
  const hitRateSkipped = sample !== undefined && values["hit-rate"] !== true;
  const queries = hitRateSkipped ? undefined : headerQuerySet(corpus.docs);
  const tables: { setting: LibrarySetting; rows: LibraryRow[] }[] = [];
  // One tick per splitter and setting: the bar's ETA comes from the splitters measured so far.
  const total = settings.reduce((sum, s) => sum + (splitters ?? librariesPreset(s.unit)).length, 0);
  const progress = createProgress(total, { label: "libraries" });
  try {
    for (const setting of settings) {
      const rows = await libraryTable(corpus.docs, {
        ...setting,
        splitters,
        queries,
        sample,
        cache: null,
        onRow: (row) => {
          if (progress.enabled) progress.tick();
          else process.stderr.write(`  ${row.splitter} ${row.size}/${row.overlap} ${row.unit}: done\n`);
        },
      });
      tables.push({ setting, rows });
    }
  } finally {
    progress.done();
    stopLibraryBridge();
  }
  const { dependencies } = readPackageJson();
  const versions = Object.fromEntries(libraryPackages.map((name) => [name, dependencies?.[name] ?? "not installed"]));
  if (values.json) {
    printJson({
      corpus: spec,
      docs: corpus.docs.length,
      ...(sample ? { sample: sampleJson(sample) } : {}),
      queries: queries?.queries.length ?? 0,
      versions,
      tables,
    });
    return 0;
  }
  const out: string[] = [`corpus ${describeCorpus(spec, corpus)}`];
  if (sample) out.push(`sample ${sample.description}`);
  if (hitRateSkipped && headerQuerySet(corpus.docs) !== undefined)
    out.push("hit rate@5 left out on a sampled corpus: add --hit-rate to split every document with every library");
  const pinned = Object.entries(versions).map(([name, version]) => `${name}@${version}`);
  out.push(`libraries ${pinned.join(", ")}`);
  for (const { setting, rows } of tables) {
    const display = libraryDisplayRows(rows);
    const headers = Object.keys(display[0] ?? {}).filter((h) => h !== "hit rate@5" || queries);
    out.push(
      "",
      `${setting.size}/${setting.overlap} ${setting.unit}`,
      formatRecords(display, (h) => h !== "splitter" && h !== "setting", headers),
      "",
      ...rows.map((row) => `- ${row.splitter}: ${row.meaning}`),
    );
  }
  process.stdout.write(out.join("\n") + "\n");
  return 0;
}

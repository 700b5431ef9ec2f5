/** `seamlab compare-splitters`: several splitter configs on one corpus, one row each. */
import { SeamlabError } from "../core/errors";
import { straddlingPairs } from "../measure/pairs";
import { splitCorpusAsync } from "../splitters/registry";
import { measureSplitterConfig } from "../measure/split-and-measure";
import type { SplitterConfig } from "../splitters/config";
import { fixedUnitOf, splitterNames, validateSplitterConfig } from "../splitters/registry";
import { librariesPreset } from "../study/libraries";
import { formatFixed, formatRatio, formatTable, numberColumns, printJson } from "./format";
import { corpusFromFlags, describeCorpus, settingFromFlags, splitterListFromFlags, unitFromFlags } from "./flag-groups";
import { commandFlags, commaList, describeRange, flagOptions, LIMITS, stringFlag, type FlagValues } from "./flags";
import { pct } from "../study/format";
import { thousands } from "../stats/format";
import { structureDamageOf, structureExtraFromFlags, structureFlags, structureFlagsHelp } from "./structure-flags";

/** The seed's comparison: LangChain's default, more overlap, and the fixes (sentences, tail), against windows. */
const DEFAULT_CONFIGS =
  "langchain:1000:200,langchain:1000:500,sentences:1000:200,tail:1000:200,window-words:1000:200,window:1000:200";

const help = `Usage: seamlab compare-splitters [options]

Runs several splitter configs over one corpus and prints one row per config: chunks, zero-overlap seams,
mean and median real overlap, seam damage (sentence pairs across paragraph breaks kept together), index
size, longest chunk and lost text, and structural damage: the share of seams that cut a code block, a
table, a list item, a heading from its content, an FAQ pair, a speaker turn or a function (units no longer
than the hard limit, default 2 x size; --json has every kind per document type with Wilson 95% CIs).

  --corpus PATH      folder, file, glob, default corpus name or npm:<pkg>/<path> (default: moby-dick)
  --configs LIST     comma-separated splitter:size:overlap[:unit[:encoding]]
                     (default ${DEFAULT_CONFIGS})
  --splitters LIST   comma-separated splitter names, any mix (built-in and library), all at --size/--overlap/--unit
  --libraries        the library preset: LangChain's recursive and every library splitter that counts --unit
                     (LlamaIndex, Mastra, chonkie, LangChain; see seamlab libraries --help)
  --size N           chunk size for --splitters/--libraries (default 1000 chars, 400 tokens)
  --overlap N        configured overlap for --splitters/--libraries (default 200 chars, 80 tokens)
  --unit U           chars | tokens for --splitters/--libraries (default chars)
  --encoding E       js-tiktoken encoding for token units (default cl100k_base)
${structureFlagsHelp.replace("structure splitter:", "structure configs:")}
  --json             print JSON rows instead of a table
  -h, --help         this help`;

/** Parses `splitter:size:overlap[:unit[:encoding]]` items, naming the bad item. */
function parseConfigList(list: string): SplitterConfig[] {
  const items = commaList(list);
  if (items.length === 0) throw new SeamlabError("--configs must list at least one splitter:size:overlap.");
  return items.map((item) => {
    const [splitter, size, overlap, unit, encoding, ...extra] = item.split(":");
    if (!splitter || size === undefined || overlap === undefined || extra.length > 0)
      throw new SeamlabError(
        `--configs item "${item}" must be splitter:size:overlap[:unit[:encoding]], e.g. langchain:1000:200.`,
      );
    if (unit !== undefined && unit !== "chars" && unit !== "tokens")
      throw new SeamlabError(`--configs item "${item}": unit must be chars or tokens, got "${unit}".`);
    const ownUnit = unit ?? fixedUnitOf(splitter) ?? "chars";
    for (const [name, value, min] of [
      ["size", size, 1],
      ["overlap", overlap, 0],
    ] as const) {
      if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > LIMITS.size)
        throw new SeamlabError(
          `--configs item "${item}": ${name} must be ` +
            `${describeRange("a whole number", { min, max: LIMITS.size, unit: ownUnit })}, got "${value}".`,
        );
    }
    const config: SplitterConfig = { splitter, size: Number(size), overlap: Number(overlap), unit: ownUnit };
    if (encoding) config.encoding = encoding;
    return config;
  });
}

const describeItem = (config: SplitterConfig): string =>
  [config.splitter, config.size, config.overlap, config.unit, config.encoding].filter((p) => p !== undefined).join(":");

/** The configs named by --configs, or --splitters/--libraries at one --size/--overlap/--unit (one of them). */
function configsFromFlags(values: FlagValues): SplitterConfig[] {
  const chosen = ["configs", "splitters", "libraries"].filter((name) => values[name] !== undefined);
  if (chosen.length > 1)
    throw new SeamlabError(`use one of --configs, --splitters and --libraries (got ${chosen.join(", ")}).`);
  if (chosen.length === 0 || values.configs !== undefined) {
    const setting = ["size", "overlap", "unit", "encoding"].find((name) => values[name] !== undefined);
    if (setting)
      throw new SeamlabError(`--${setting} goes with --splitters or --libraries; --configs carries its own.`);
    // The default list skips splitters this build does not register; an explicit list is checked strictly.
    const configs =
      values.configs === undefined
        ? parseConfigList(DEFAULT_CONFIGS).filter((config) => splitterNames.includes(config.splitter))
        : parseConfigList(String(values.configs));
    for (const config of configs) {
      try {
        validateSplitterConfig(config);
      } catch (error) {
        if (!(error instanceof SeamlabError)) throw error;
        throw new SeamlabError(`--configs item "${describeItem(config)}": ${error.message}`);
      }
    }
    return configs;
  }
  const { unit, size, overlap } = settingFromFlags(values);
  const names = values.libraries ? librariesPreset(unit) : splitterListFromFlags(values)!;
  if (values.splitters !== undefined) unitFromFlags(values, names);
  return names.map((splitter) => {
    const config: SplitterConfig = { splitter, size, overlap, unit: fixedUnitOf(splitter) ?? unit };
    if (unit === "tokens") config.encoding = stringFlag(values, "encoding", "cl100k_base");
    validateSplitterConfig(config);
    return config;
  });
}

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    {
      ...flagOptions(["corpus", "configs", "splitters", "size", "overlap", "unit", "encoding"], ["libraries", "json"]),
      ...structureFlags,
    },
    help,
  );
  if (!values) return 0;
  const configs = configsFromFlags(values);
  const extra = structureExtraFromFlags(values);
  if (extra) {
    for (const config of configs) {
      if (config.splitter !== "structure") continue;
      config.extra = extra;
      validateSplitterConfig(config);
    }
  }
  const { spec, corpus } = corpusFromFlags(values);
  const pairs = straddlingPairs(corpus.docs);
  const rows = [];
  for (const config of configs) {
    const chunks = await splitCorpusAsync(corpus.docs, config);
    const measured = measureSplitterConfig(corpus.docs, config, { pairs, skipParagraphs: true, chunks });
    const s = measured.summary;
    const structure = structureDamageOf(corpus, config, chunks, values);
    const rate = (kind: string) => structure.rows.find((r) => r.type === "all" && r.kind === kind)!;
    rows.push({
      config: `${config.splitter}:${config.size}:${config.overlap}${config.unit === "tokens" ? ":tokens" : ""}`,
      splitter: config.splitter,
      size: config.size,
      overlap: config.overlap,
      unit: s.unit,
      chunks: s.chunks,
      seams: s.seams,
      zeroOverlapSeams: s.zeroOverlapSeams,
      zeroOverlapPct: s.seams === 0 ? null : s.zeroOverlapPct, // a share of no seams is no number
      meanOverlap: s.meanOverlap,
      medianOverlap: s.medianOverlap,
      pairs: measured.seamDamage.pairs,
      pairsKept: measured.seamDamage.kept,
      pairsKeptPct: measured.seamDamage.keptPct,
      indexRatio: s.indexRatio,
      maxChunkLength: s.maxChunkLength,
      lostChars: s.lostChars,
      structureDamagePct: 100 * rate("any").value,
      codeBlockCutPct: 100 * rate("code-block").value,
      tableCutPct: 100 * rate("table").value,
      listItemCutPct: 100 * rate("list-item").value,
      strandedHeadingPct: 100 * rate("heading").value,
      structureDamage: structure,
    });
  }
  if (values.json) {
    printJson({ corpus: spec, docs: corpus.docs.length, rows });
    return 0;
  }
  const table = formatTable(
    numberColumns(
      "config",
      ...["chunks", "zero-overlap seams", "mean overlap", "median", "pairs kept", "index", "max chunk", "lost chars"],
      ...["struct dmg", "code", "table", "list", "heading"],
    ),
    rows.map((row) => [
      row.config,
      thousands(row.chunks),
      row.zeroOverlapPct === null ? "no seams" : pct(row.zeroOverlapPct / 100),
      formatFixed(row.meanOverlap),
      formatFixed(row.medianOverlap, 0),
      pct(row.pairsKeptPct / 100),
      formatRatio(row.indexRatio),
      thousands(row.maxChunkLength),
      thousands(row.lostChars),
      pct(row.structureDamagePct / 100),
      pct(row.codeBlockCutPct / 100),
      pct(row.tableCutPct / 100),
      pct(row.listItemCutPct / 100),
      pct(row.strandedHeadingPct / 100),
    ]),
  );
  process.stdout.write(
    `corpus ${describeCorpus(spec, corpus)}\n\n${table}\n` +
      "struct dmg: seams cutting any structural unit (code, table, list item, heading, FAQ pair, turn, function); " +
      "code/table/list/heading: seams cutting that kind. Units longer than the hard limit are not counted.\n",
  );
  return 0;
}

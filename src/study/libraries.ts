// The library table: every chunking library's splitter at one setting, measured like seamlab's own splitters, with a
// sentence per row saying what it means for that library's users.
import type { Chunk, Doc, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import { wilsonInterval } from "../stats/proportion";
import type { Interval } from "../stats/types";
import { measureDuplicatedChars } from "../measure/lost";
import { measureSpanFidelity, formatTextChange } from "../measure/fidelity";
import { measureSplitterConfig } from "../measure/split-and-measure";
import { straddlingPairs } from "../measure/pairs";
import { buildHeaderQueries } from "../retrieval/header-queries";
import { evaluateQueries, summarizeOutcomes } from "../retrieval/evaluate";
import { createRetriever } from "../retrieval/factory";
import type { SplitterConfig, Unit } from "../splitters/config";
import { librarySplitter, librarySplitters } from "../splitters/libraries";
import { splitterNames, validateSplitterConfig } from "../splitters/registry";
import { cacheOrDefault, type ResultCache } from "../experiment/cache";
import { splitCorpusCached } from "../experiment/split-cache";
import type { DocumentSample } from "../corpus/sample";
import { documentShareInterval, zeroSeamShare } from "./sampling";
import { thousands } from "../stats/format";

export type LibrarySetting = Pick<SplitterConfig, "size" | "overlap" | "encoding"> & { unit: Unit };

/** The two settings of the headline table. */
export const librarySettings: LibrarySetting[] = [
  { unit: "chars", size: 1000, overlap: 200 },
  { unit: "tokens", size: 400, overlap: 80 },
];

/** `meanOverlap` in the unit, `realisedRatio` null at overlap 0, `hitRate` BM25 hit rate@5 on header queries (null
 * without them); `error` set (every number 0) when the library failed (threw or timed out) on some document. */
export type LibraryRow = Awaited<ReturnType<typeof measureLibrary>> & { meaning: string; error?: string };

/** Every library splitter, `langchain` and the other `langchain-*` splitters, keeping those that can count `unit`. */
export function librariesPreset(unit: Unit): string[] {
  const names = ["langchain", ...librarySplitters.map((s) => s.name)];
  for (const name of splitterNames) if (name.startsWith("langchain-") && names.indexOf(name) < 0) names.push(name);
  return names.filter((splitter) => {
    try {
      validateSplitterConfig({ splitter, size: 1000, overlap: 200, unit });
      return true;
    } catch {
      return false;
    }
  });
}

function libraryOf(splitter: string): string {
  return librarySplitter(splitter)?.library ?? (splitter.startsWith("langchain") ? "LangChain JS" : "seamlab");
}

/** Who a row speaks to; `langchain-python` is LangChain JS's preset for Python code, not LangChain Python. */
export function audienceOf(splitter: string): string {
  if (splitter === "langchain-markdown") return "Users of LangChain JS's MarkdownTextSplitter";
  const preset = /^langchain-(js|python)$/.exec(splitter);
  if (preset) {
    const language = preset[1] === "js" ? "JavaScript" : "Python";
    return `Users of LangChain JS's ${language}-code preset (fromLanguage("${preset[1]}"))`;
  }
  return `${libraryOf(splitter)} users`;
}

/** One decimal, always shown, with thousands separators: 88 -> "88.0", 1234.56 -> "1,234.6". */
const fmt = (n: number) => thousands(n, 1, { fixed: true });

/** The one sentence a user of `row`'s library should read. */
export function libraryMeaning(row: Omit<LibraryRow, "meaning">): string {
  const unit = row.unit === "tokens" ? "tokens" : "characters";
  const ratio = row.realisedRatio === null ? "" : ` (${Math.round(row.realisedRatio * 100)}% of it)`;
  const parts = [
    librarySplitter(row.splitter)?.ignoresOverlap
      ? `${row.splitter} has no overlap setting: overlap ${row.overlap} does nothing`
      : `overlap ${row.overlap} gives ${fmt(row.meanOverlap)} ${unit} per seam on average${ratio}`,
    row.seams === 0
      ? "no seams to measure (every document is one chunk)"
      : `${row.zeroOverlapPct.toFixed(1)}% of seams share nothing`,
    row.oversizeChunks > 0 ? `${row.oversizeChunks} chunks exceed size ${row.size}` : "",
    row.lostChars > 0 ? `${row.lostChars} characters are in no chunk` : "",
    row.rewrittenSpans > 0 ? `${row.rewrittenSpans} chunks embed text rewritten from the source` : "",
  ];
  return `${audienceOf(row.splitter)}: ${parts.filter(Boolean).join("; ")}.`;
}

export interface LibraryTableOptions extends LibrarySetting {
  splitters?: string[];
  /** header queries and the docs they were built on (headings stripped), for the retrieval columns */
  queries?: { docs: Doc[]; queries: Query[] };
  /** measure these documents only: the zero-overlap CI is then a cluster bootstrap over them (at least Wilson's) */
  sample?: DocumentSample;
  onRow?: (row: LibraryRow) => void;
  /** where the splits are kept for a re-run (default: the project's result cache; null: none) */
  cache?: ResultCache | null;
}

/** One row per splitter at one setting. A library that fails gives a row with `error`, not an exception. */
export async function libraryTable(corpus: readonly Doc[], options: LibraryTableOptions): Promise<LibraryRow[]> {
  const { size, overlap, unit, encoding } = options;
  const names = options.splitters ?? librariesPreset(unit);
  const docs = options.sample ? options.sample.docs : corpus;
  const pairs = straddlingPairs(docs);
  const cache = cacheOrDefault(options.cache);
  const rows: LibraryRow[] = [];
  for (const splitter of names) {
    const config: SplitterConfig = { splitter, size, overlap, unit, ...(encoding ? { encoding } : {}) };
    validateSplitterConfig(config);
    let row: LibraryRow;
    try {
      const measured = await measureLibrary(docs, config, pairs, cache, options.queries, options.sample?.strata);
      row = { ...measured, meaning: libraryMeaning(measured) };
    } catch (error) {
      if (!(error instanceof SeamlabError)) throw error;
      row = failedRow(config, error.message);
    }
    rows.push(row);
    options.onRow?.(row);
  }
  return rows;
}

async function measureLibrary(
  docs: readonly Doc[],
  config: SplitterConfig,
  pairs: ReturnType<typeof straddlingPairs>,
  cache: ResultCache,
  queries: LibraryTableOptions["queries"],
  strata: readonly string[] | undefined,
) {
  const chunks: Chunk[] = splitCorpusCached(docs, config, cache);
  const m = measureSplitterConfig(docs, config, { pairs, chunks, skipParagraphs: true });
  const s = m.summary;
  const fidelity = measureSpanFidelity(docs, chunks, 1);
  let retrieval = { hitRate: null as number | null, hitRateCI: null as Interval | null };
  if (queries && queries.queries.length > 0) {
    const retrievalChunks = splitCorpusCached(queries.docs, config, cache);
    const retriever = await createRetriever("bm25", retrievalChunks, {});
    const outcomes = await evaluateQueries(retrievalChunks, queries.queries, retriever, {});
    retrieval = summarizeOutcomes(outcomes, { retriever: retriever.name, k: 5, chunks: retrievalChunks.length });
  }
  const meanOverlap = config.unit === "tokens" ? (s.meanOverlapTokens ?? 0) : s.meanOverlap;
  return {
    ...settingOf(config),
    chunks: s.chunks,
    seams: s.seams,
    meanOverlap,
    realisedRatio: config.overlap > 0 ? meanOverlap / config.overlap : null,
    zeroOverlapSeams: s.zeroOverlapSeams,
    zeroOverlapPct: s.zeroOverlapPct,
    zeroOverlapCI: strata
      ? documentShareInterval(zeroSeamShare(docs, m.seams), strata)
      : wilsonInterval(s.zeroOverlapSeams, s.seams),
    lostChars: s.lostChars,
    duplicatedChars: measureDuplicatedChars(docs, chunks),
    indexRatio: s.indexRatio,
    oversizeChunks: s.chunksOverLimit,
    maxChunkLength: s.maxChunkLength,
    pairsKeptPct: m.seamDamage.keptPct,
    exactSpans: fidelity.exact,
    whitespaceSpans: fidelity.whitespace,
    rewrittenSpans: fidelity.rewritten,
    firstChange: fidelity.changes[0] ? formatTextChange(fidelity.changes[0]) : null,
    hitRate: retrieval.hitRate,
    hitRateCI: retrieval.hitRateCI,
  };
}

function settingOf(config: SplitterConfig) {
  const { splitter, size, overlap } = config;
  return { splitter, library: libraryOf(splitter), unit: config.unit ?? ("chars" as const), size, overlap };
}

function failedRow(config: SplitterConfig, message: string): LibraryRow {
  return {
    ...settingOf(config),
    chunks: 0,
    seams: 0,
    meanOverlap: 0,
    realisedRatio: null,
    zeroOverlapSeams: 0,
    zeroOverlapPct: 0,
    zeroOverlapCI: { low: 0, high: 0 },
    lostChars: 0,
    duplicatedChars: 0,
    indexRatio: 0,
    oversizeChunks: 0,
    maxChunkLength: 0,
    pairsKeptPct: 0,
    exactSpans: 0,
    whitespaceSpans: 0,
    rewrittenSpans: 0,
    firstChange: null,
    hitRate: null,
    hitRateCI: null,
    meaning: `${audienceOf(config.splitter)}: ${message}`,
    error: message,
  };
}

/** Table rows for display (notebook 01, the CLI and docs/libraries.md): strings, one per column. */
export function libraryDisplayRows(rows: readonly LibraryRow[]): Record<string, string>[] {
  const pct = (v: number) => `${v.toFixed(1)}%`;
  return rows.map((r) => {
    const ci = `[${(r.zeroOverlapCI.low * 100).toFixed(1)}–${(r.zeroOverlapCI.high * 100).toFixed(1)}]`;
    const measured: Record<string, string> = {
      "mean overlap": `${fmt(r.meanOverlap)}${r.realisedRatio === null ? "" : ` (${pct(r.realisedRatio * 100)})`}`,
      "zero-overlap seams [95% CI]": r.seams === 0 ? "no seams" : `${pct(r.zeroOverlapPct)} ${ci}`,
      "lost chars": thousands(r.lostChars),
      oversize: thousands(r.oversizeChunks),
      index: `${r.indexRatio.toFixed(2)}×`,
      "pairs kept": pct(r.pairsKeptPct),
      "rewritten chunks": thousands(r.rewrittenSpans),
    };
    if (r.error) for (const column in measured) measured[column] = "";
    return {
      splitter: r.splitter,
      setting: `${r.size}/${r.overlap} ${r.unit}`,
      chunks: r.error ? "failed" : thousands(r.chunks),
      ...measured,
      "hit rate@5": r.hitRate === null ? "" : pct(r.hitRate * 100),
    };
  });
}

/** The markdown under a library table: the finding in one sentence, then one line per splitter. */
export function libraryVerdict(rows: readonly LibraryRow[], corpus: string): string {
  const measured = rows.filter((r) => !r.error && r.seams > 0);
  const mostlyBare = measured.filter((r) => r.zeroOverlapPct > 50).map((r) => `\`${r.splitter}\``);
  const full = measured
    .filter((r) => r.realisedRatio !== null && r.realisedRatio >= 0.95)
    .map((r) => `\`${r.splitter}\``);
  const setting = rows[0] ? `${rows[0].overlap} ${rows[0].unit === "tokens" ? "tokens" : "characters"}` : "";
  const lead =
    `On ${corpus}, a configured overlap of ${setting} is realised in full (95% or more on average) only by ` +
    `${full.length ? full.join(", ") : "none of them"}; ` +
    `${mostlyBare.length} of ${measured.length} splitters share nothing at more than half their seams` +
    `${mostlyBare.length ? ` (${mostlyBare.join(", ")})` : ""}.`;
  return [lead, "", ...rows.map((r) => `- \`${r.splitter}\`: ${r.meaning}`)].join("\n");
}

/** Header queries for the retrieval columns (undefined when the corpus has no usable `##`/`###` headings). */
export function headerQuerySet(docs: readonly Doc[]): { docs: Doc[]; queries: Query[] } | undefined {
  const set = buildHeaderQueries(docs);
  return set.queries.length > 0 ? { docs: set.docs, queries: set.queries } : undefined;
}

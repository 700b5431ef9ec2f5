/** `seamlab seams`: real overlap at every seam of a corpus split with one splitter config. */
import { parseArgs } from "node:util";
import type { LoadedCorpus } from "../corpus/load";
import { splitCorpusAsync } from "../splitters/registry";
import { measureSplitterConfig, type ConfigMeasurement } from "../measure/split-and-measure";
import {
  formatFixed,
  formatKeyValues,
  formatRatio,
  formatTable,
  refuseToOverwrite,
  toJson,
  writeFileAtomically,
} from "./format";
import {
  corpusFromFlags,
  describeConfig,
  describeCorpus,
  sizeBounds,
  splitFlags,
  splitFlagsHelp,
  splitterConfigFromFlags,
} from "./flag-groups";
import { intFlag } from "./flags";
import { num, pct } from "../study/format";
import {
  structureDamageOf,
  structureDamageText,
  structureExtraFromFlags,
  structureFlags,
  structureFlagsHelp,
} from "./structure-flags";

export const summary = "Real overlap per seam, zero-overlap share, lost text and seam damage of one splitter config.";

async function splitterList(): Promise<string> {
  try {
    const { splitterNames } = await import("../splitters/registry");
    return splitterNames.join(", ");
  } catch {
    return "(splitter registry unavailable)";
  }
}

async function help(): Promise<string> {
  return `Usage: seamlab seams [options]

Splits a corpus with one splitter config and measures every seam (neighbouring chunks of one doc) from
exact source spans: real overlap, gaps, lost text, chunk sizes, index size, seam damage, backward openers.

${splitFlagsHelp}
${structureFlagsHelp}
  --limit N          count chunks longer than N (in --unit; default --size)
  --per-seam FILE    also write one JSON line per seam {doc,index,prevEnd,nextStart,overlap,...} to FILE
  --force            overwrite --per-seam FILE if it exists
  -h, --help         this help

Splitters: ${await splitterList()}`;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...splitFlags,
      ...structureFlags,
      limit: { type: "string" },
      "per-seam": { type: "string" },
      force: { type: "boolean" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write((await help()) + "\n");
    return 0;
  }
  const extra = structureExtraFromFlags(values);
  const config = splitterConfigFromFlags(values, extra ? { extra } : {});
  const limit = intFlag(values, "limit", config.size, sizeBounds(config.unit ?? "chars", 1));
  const perSeamPath = values["per-seam"];
  if (perSeamPath !== undefined) refuseToOverwrite(perSeamPath, values.force === true, "--per-seam");
  const { spec, corpus } = corpusFromFlags(values);
  const chunks = await splitCorpusAsync(corpus.docs, config);
  const measured = measureSplitterConfig(corpus.docs, config, { limit, chunks });
  const structure = structureDamageOf(corpus, config, chunks, values);
  if (perSeamPath !== undefined) {
    writeFileAtomically(perSeamPath, perSeamLines(measured), { force: values.force === true, flag: "--per-seam" });
  }
  if (values.json) {
    process.stdout.write(toJson({ ...seamsJson(spec, corpus, measured), structureDamage: structure }) + "\n");
  } else {
    process.stdout.write(seamsText(spec, corpus, measured) + "\n\n" + structureDamageText(structure) + "\n");
  }
  return 0;
}

function perSeamLines(measured: ConfigMeasurement): string {
  const tokens = measured.summary.unit === "tokens";
  return measured.seams
    .map((seam) => {
      const line: Record<string, unknown> = {
        doc: seam.doc,
        index: seam.index,
        prevEnd: seam.prevEnd,
        nextStart: seam.nextStart,
        overlap: seam.overlap,
        gap: seam.gap,
        gapLostChars: seam.gapLostChars,
      };
      if (tokens) line.overlapTokens = seam.overlapTokens;
      return JSON.stringify(line) + "\n";
    })
    .join("");
}

/** The `--json` document: the summary's fields at the top level, then the other measurements. */
export function seamsJson(spec: string, corpus: LoadedCorpus, measured: ConfigMeasurement): Record<string, unknown> {
  return {
    corpus: spec,
    skippedEmpty: corpus.skippedEmpty,
    ...(corpus.skippedSpecial ? { skippedSpecial: corpus.skippedSpecial } : {}),
    config: measured.config,
    ...measured.summary,
    seamDamage: measured.seamDamage,
    paragraphs: measured.paragraphs,
    backwardOpeners: measured.openers,
  };
}

function seamsText(spec: string, corpus: LoadedCorpus, measured: ConfigMeasurement): string {
  const s = measured.summary;
  const unit = s.unit === "tokens" ? "tokens" : "chars";
  const overlapLine =
    s.unit === "tokens"
      ? `mean ${formatFixed(s.meanOverlapTokens ?? 0)} tokens (${formatFixed(s.meanOverlap)} chars), median ${formatFixed(s.medianOverlapTokens ?? 0, 0)} tokens`
      : `mean ${formatFixed(s.meanOverlap)}, median ${formatFixed(s.medianOverlap, 0)}, p10 ${formatFixed(s.p10Overlap, 0)}, p90 ${formatFixed(s.p90Overlap, 0)} chars`;
  const ratio = s.realisedOverlapRatio === null ? "n/a (nominal 0)" : pct(s.realisedOverlapRatio);
  const d = measured.seamDamage;
  const p = measured.paragraphs;
  const o = measured.openers;
  const lines = [
    formatKeyValues([
      ["corpus", describeCorpus(spec, corpus)],
      ["config", describeConfig(measured.config)],
      ["chunks", num(s.chunks)],
      ["seams", num(s.seams)],
      ["zero-overlap seams", `${num(s.zeroOverlapSeams)} (${pct(s.zeroOverlapPct / 100)})`],
      ["real overlap", overlapLine],
      ["realised / nominal", `${ratio} of ${num(s.nominalOverlap)} ${unit}`],
      ["seams with a gap", num(s.gapSeams)],
      ["lost text", `${num(s.lostChars)} non-whitespace chars in ${num(s.docsWithLostText)} docs`],
      ["index size", `${formatRatio(s.indexRatio)} the corpus`],
      [
        `chunk length (${unit})`,
        `median ${formatFixed(s.chunkLength.median, 0)}, p90 ${formatFixed(s.chunkLength.p90, 0)}, max ${num(s.maxChunkLength)}; ${num(s.chunksOverLimit)} over ${num(s.limit)}`,
      ],
      [
        "seam damage",
        `${num(d.kept)} of ${num(d.pairs)} sentence pairs across paragraph breaks kept together (${pct(d.keptPct / 100)})`,
      ],
      [
        "paragraphs",
        `${num(p.paragraphs)}, median ${formatFixed(p.lengths.median, 0)} ${unit}; ${pct(p.overBudgetPct / 100)} longer than the ${num(p.budget)}-${unit.slice(0, -1)} overlap`,
      ],
      [
        "backward openers",
        `${num(o.backwardOpeners)} of ${num(o.zeroOverlapSeams)} zero-overlap seams` +
          (o.byWord.length
            ? ` (${o.byWord
                .slice(0, 6)
                .map((w) => `${w.word} ${w.count}`)
                .join(", ")})`
            : ""),
      ],
    ]),
    "",
    `overlap histogram (${unit}):`,
    formatTable(
      [{ header: "overlap" }, { header: "seams", align: "right" }, { header: "share", align: "right" }],
      s.overlapHistogram.map((bin) => [bin.label, num(bin.count), pct(s.seams ? bin.count / s.seams : 0)]),
    ),
  ];
  if (o.samples.length) {
    lines.push("", "chunks opening with a backward word after a zero-overlap seam:");
    for (const sample of o.samples) lines.push(`  ${sample.doc} #${sample.index + 1}: "${sample.text}"`);
  }
  return lines.join("\n");
}

/** `seamlab seams`: real overlap at every seam of a corpus split with one splitter config. */
import { peakRssText } from "../core/memory";
import { streamCorpus } from "../corpus/load";
import { perSeamOutput } from "./per-seam";
import { measureSampledSeams, type SampledSeams } from "../experiment/sampled-seams";
import { parseSampleRequest } from "../corpus/sample";
import { documentShareInterval } from "../study/sampling";
import type { Interval } from "../stats/types";
import { createProgress } from "../experiment/progress";
import { splitterNames, unitOf } from "../splitters/registry";
import { formatFixed, formatKeyValues, formatRatio, formatTable, numberColumns, printJson, sampleJson } from "./format";
import {
  cacheDirFromFlags,
  corpusSpecFromFlags,
  describeConfig,
  describeCorpusCounts,
  sizeBounds,
  splitFlags,
  splitFlagsHelp,
  splitterConfigFromFlags,
} from "./flag-groups";
import { commandFlags, flagOptions, intFlag } from "./flags";
import { pct } from "../study/format";
import { thousands } from "../stats/format";
import {
  structureDamageReport,
  structureDamageText,
  structureExtraFromFlags,
  structureFlags,
  structureFlagsHelp,
  structureLimitOf,
  typeOverridesFromFlags,
} from "./structure-flags";

const help = `Usage: seamlab seams [options]

Splits a corpus with one splitter config and measures every seam (neighbouring chunks of one doc) from
exact source spans: real overlap, gaps, lost text, chunk sizes, index size, seam damage, backward openers.
The corpus is read one document at a time (memory grows with the number of seams, not the corpus text), and
each document's results are cached by its content and the config: after adding or editing a few files, a
re-run measures only those. The closing line on stderr counts both and prints time and peak RSS.

The numbers come from a seeded sample of documents, stratified by folder and length, sized so that the two
headline shares (zero-overlap seams, sentence pairs kept) have 95% CIs of about ±1 point: a corpus that needs
every document is measured whole. The CIs are a cluster bootstrap over documents (a document's seams are not
independent), never narrower than Wilson's. The sample and the CIs are printed with the numbers.

${splitFlagsHelp}
${structureFlagsHelp}
  --limit N          count chunks longer than N (in --unit; default --size)
  --sample S         documents measured: auto (default, sized for ±1-point CIs), auto:H (e.g. auto:0.02),
                     a number of documents, or all
  --per-seam FILE    also write one JSON line per seam {doc,index,prevEnd,nextStart,overlap,...} to FILE
  --text             with --per-seam: add each seam's text (plain in JSON): before, shared (both chunks hold it),
                     between (neither holds it) and after; a FILE ending in .html is a page of every seam's text,
                     escaped, instead of JSON lines
  --text-chars N     characters of text either side of a seam with --text (default 80)
  --force            overwrite --per-seam FILE if it exists
  --cache-dir DIR    where per-document results are cached (default .seamlab-cache/ in the project root)
  --no-cache         neither read nor write the per-document cache
  --quiet            no progress bar (it is also off when stderr is not a terminal)
  -h, --help         this help

Splitters: ${splitterNames.join(", ")}`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(
    argv,
    {
      ...splitFlags,
      ...structureFlags,
      ...flagOptions(
        ["limit", "sample", "per-seam", "text-chars", "cache-dir"],
        ["text", "force", "no-cache", "quiet"],
      ),
    },
    help,
  );
  if (!values) return 0;
  const started = Date.now();
  const extra = structureExtraFromFlags(values);
  const config = splitterConfigFromFlags(values, extra ? { extra } : {});
  const limit = intFlag(values, "limit", config.size, sizeBounds(config.unit ?? "chars", 1));
  const request = parseSampleRequest(values.sample, "--sample");
  const perSeamFile = perSeamOutput(values);
  const cacheDir = values["no-cache"] ? null : cacheDirFromFlags(values);
  const spec = corpusSpecFromFlags(values);
  const corpus = streamCorpus(spec);
  const perSeam = perSeamFile?.open(corpus, unitOf(config) === "tokens");
  let progress = createProgress(0, { quiet: true });
  let result: SampledSeams;
  try {
    result = await measureSampledSeams(
      corpus,
      config,
      {
        cacheDir,
        limit,
        overrides: typeOverridesFromFlags(values),
        structureLimit: structureLimitOf(config),
      },
      request,
      {
        onPass(docs, pass) {
          progress.done();
          const label = request.kind === "auto" ? `seams (sample ${pass})` : "seams";
          progress = createProgress(docs, { quiet: values.quiet === true, label });
        },
        onMeasured: (_part, cached) => (cached ? progress.skip(1) : progress.tick(1)),
        onResult: (part) => perSeam?.onResult(part),
      },
    );
  } catch (error) {
    progress.done();
    perSeam?.abort();
    throw error;
  }
  progress.done();
  perSeam?.finish([`corpus ${spec}`, `config ${describeConfig(result.measured.config)}`]);
  const measured = result.measured;
  // The corpus line counts the whole corpus; the sample line says which of its documents were measured.
  const counts = {
    ...corpus,
    skippedEmpty: result.skippedEmpty,
    docs: result.sample.population,
    chars: result.corpusChars,
  };
  const structure = structureDamageReport(config, measured.structure);
  if (values.json)
    printJson({
      corpus: spec,
      skippedEmpty: counts.skippedEmpty,
      ...(counts.skippedSpecial ? { skippedSpecial: counts.skippedSpecial } : {}),
      config: measured.config,
      ...measured.summary,
      // a share of no seams is no number: null, not a 0% that reads as "every seam shares text"
      ...(measured.summary.seams === 0 ? { zeroOverlapPct: null } : {}),
      seamDamage: measured.seamDamage,
      paragraphs: measured.paragraphs,
      backwardOpeners: measured.openers,
      sample: { ...sampleJson(result.sample), ...sampleIntervals(result) },
      structureDamage: structure,
    });
  else
    process.stdout.write(
      seamsText(describeCorpusCounts(spec, counts), measured, result) + "\n\n" + structureDamageText(structure) + "\n",
    );
  const rejected = measured.rejected
    ? `; ${measured.rejected} cached part(s) failed their checksum or key check and were recomputed`
    : "";
  process.stderr.write(
    `seams: ${thousands(measured.summary.docs)} docs (${thousands(measured.computed)} measured, ${thousands(measured.cached)} from the ` +
      `cache${rejected}) in ${((Date.now() - started) / 1000).toFixed(1)} s, ${peakRssText()}\n`,
  );
  return 0;
}

/** 95% CIs of the two headline shares over the measured documents; null for a share of nothing. */
function sampleIntervals(result: SampledSeams): { zeroOverlap: Interval | null; kept: Interval | null } {
  const { shares, sample } = result;
  const interval = (numerators: number[], denominators: number[]) =>
    denominators.some((x) => x > 0) ? documentShareInterval({ numerators, denominators }, sample.strata) : null;
  return {
    zeroOverlap: interval(shares.zeroSeams, shares.seams),
    kept: interval(shares.kept, shares.pairs),
  };
}

function seamsText(corpusLine: string, measured: SampledSeams["measured"], result: SampledSeams): string {
  const ci = sampleIntervals(result);
  const range = (i: Interval | null) => (i ? `[95% CI ${pct(i.low)}–${pct(i.high)}]` : "");
  const s = measured.summary;
  const unit = s.unit === "tokens" ? "tokens" : "chars";
  const overlapLine =
    s.seams === 0
      ? "none (no seams)"
      : s.unit === "tokens"
        ? `mean ${formatFixed(s.meanOverlapTokens ?? 0)} tokens (${formatFixed(s.meanOverlap)} chars), median ` +
          `${formatFixed(s.medianOverlapTokens ?? 0, 0)} tokens`
        : `mean ${formatFixed(s.meanOverlap)}, median ${formatFixed(s.medianOverlap, 0)}, p10 ` +
          `${formatFixed(s.p10Overlap, 0)}, p90 ${formatFixed(s.p90Overlap, 0)} chars`;
  const ratio =
    s.realisedOverlapRatio !== null
      ? pct(s.realisedOverlapRatio)
      : s.nominalOverlap === 0
        ? "n/a (nominal 0)"
        : "n/a (no seams)";
  const d = measured.seamDamage;
  const p = measured.paragraphs;
  const o = measured.openers;
  const lines = [
    formatKeyValues([
      ["corpus", corpusLine],
      ["sample", result.sample.description],
      ["config", describeConfig(measured.config)],
      ["chunks", thousands(s.chunks)],
      ["seams", thousands(s.seams)],
      [
        "zero-overlap seams",
        s.seams === 0
          ? "none: there are no seams (every document fits in one chunk), so no share to report"
          : `${thousands(s.zeroOverlapSeams)} (${pct(s.zeroOverlapPct / 100)}) ${range(ci.zeroOverlap)}`,
      ],
      ["real overlap", overlapLine],
      ["realised / nominal", `${ratio} of ${thousands(s.nominalOverlap)} ${unit}`],
      ["seams with a gap", thousands(s.gapSeams)],
      ["lost text", `${thousands(s.lostChars)} non-whitespace chars in ${thousands(s.docsWithLostText)} docs`],
      ["index size", `${formatRatio(s.indexRatio)} the corpus`],
      [
        `chunk length (${unit})`,
        `median ${formatFixed(s.chunkLength.median, 0)}, p90 ${formatFixed(s.chunkLength.p90, 0)}, max ` +
          `${thousands(s.maxChunkLength)}; ${thousands(s.chunksOverLimit)} over ${thousands(s.limit)}`,
      ],
      [
        "seam damage",
        d.pairs === 0
          ? "no sentence pairs across paragraph breaks, so no share to report"
          : `${thousands(d.kept)} of ${thousands(d.pairs)} sentence pairs across paragraph breaks kept together ` +
            `(${pct(d.keptPct / 100)}) ${range(ci.kept)}`,
      ],
      [
        "paragraphs",
        `${thousands(p.paragraphs)}, median ${formatFixed(p.lengths.median, 0)} ${unit}; ${pct(p.overBudgetPct / 100)} ` +
          `longer than the ${thousands(p.budget)}-${unit.slice(0, -1)} overlap`,
      ],
      [
        "backward openers",
        `${thousands(o.backwardOpeners)} of ${thousands(o.zeroOverlapSeams)} zero-overlap seams` +
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
      numberColumns("overlap", "seams", "share"),
      s.overlapHistogram.map((bin) => [bin.label, thousands(bin.count), pct(s.seams ? bin.count / s.seams : 0)]),
    ),
  ];
  if (o.samples.length) {
    lines.push("", "chunks opening with a backward word after a zero-overlap seam:");
    for (const sample of o.samples) lines.push(`  ${sample.doc} #${sample.index + 1}: "${sample.text}"`);
  }
  return lines.join("\n");
}

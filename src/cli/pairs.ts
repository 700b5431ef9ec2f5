/** `seamlab pairs`: seam damage — sentence pairs across paragraph breaks that no chunk keeps together. */
import { splitCorpusAsync } from "../splitters/registry";
import { measureSeamDamage } from "../measure/pairs";
import { formatKeyValues, printJson } from "./format";
import {
  corpusFromFlags,
  describeConfig,
  describeCorpus,
  splitFlags,
  splitFlagsHelp,
  splitterConfigFromFlags,
} from "./flag-groups";
import { pct } from "../study/format";
import { thousands } from "../stats/format";
import { commandFlags } from "./flags";

const help = `Usage: seamlab pairs [options]

Takes every pair of sentences that straddles a paragraph break (the last sentence of a paragraph and the first
of the next, Intl.Segmenter boundaries) and counts the pairs that land together in at least one chunk.

${splitFlagsHelp}
  -h, --help         this help`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(argv, splitFlags, help);
  if (!values) return 0;
  const config = splitterConfigFromFlags(values);
  const { spec, corpus } = corpusFromFlags(values);
  const damage = measureSeamDamage(corpus.docs, await splitCorpusAsync(corpus.docs, config));
  if (values.json) {
    printJson({ corpus: spec, config, ...damage });
    return 0;
  }
  process.stdout.write(
    formatKeyValues([
      ["corpus", describeCorpus(spec, corpus)],
      ["config", describeConfig(config)],
      ["pairs", thousands(damage.pairs)],
      ["kept together", `${thousands(damage.kept)} (${pct(damage.keptPct / 100)})`],
      ["split apart", `${thousands(damage.split)} (${pct(damage.pairs ? damage.split / damage.pairs : 0)})`],
    ]) + "\n",
  );
  return 0;
}

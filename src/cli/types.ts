/** `seamlab types`: the corpus broken down by document/section type, and the rules that decide each type. */
import { classifyDoc, TYPE_RULES, typeBreakdown } from "../corpus/doc-types";
import { pct } from "../study/format";
import { thousands } from "../stats/format";
import { formatRecords, formatTable, numberColumns, printJson, toJson } from "./format";
import { corpusFromFlags, describeCorpus } from "./flag-groups";
import { typeOverridesFromFlags } from "./structure-flags";
import { commandFlags, flagOptions } from "./flags";

const help = `Usage: seamlab types [options]

Classifies every file and every markdown section with transparent rules (the first that fires wins) and
prints characters, sections and documents per type. A document's type is the one holding most of its text.

  --corpus PATH      folder, file, glob, default corpus name or npm:<pkg>/<path> (default: moby-dick)
  --types FILE       overrides, one "PATTERN TYPE" per line: a glob over document ids (docs/faq/** faq) or
                     a heading pattern (heading: /\\?$/ faq); first match wins, before the built-in rules
  --rules            print the built-in rules and exit
  --sections         also list every section with its type and the rule that decided it
  --json             print JSON instead of a table
  -h, --help         this help`;

export async function run(argv: string[]): Promise<number> {
  const values = await commandFlags(argv, flagOptions(["corpus", "types"], ["rules", "sections", "json"]), help);
  if (!values) return 0;
  if (values.rules) {
    const header = "rule (first that fires wins, in this order)";
    const table = formatTable(
      [{ header: "type" }, { header }],
      TYPE_RULES.map((r) => [r.type, r.rule]),
    );
    process.stdout.write((values.json ? toJson(TYPE_RULES) : table) + "\n");
    return 0;
  }
  const overrides = typeOverridesFromFlags(values);
  const { spec, corpus } = corpusFromFlags(values);
  const typed = corpus.docs.map((doc) => classifyDoc(doc, overrides));
  const rows = typeBreakdown(typed);
  const sections = typed.flatMap((t) =>
    t.sections.map((s) => ({
      doc: t.doc,
      start: s.start,
      end: s.end,
      heading: s.heading ?? null,
      type: s.type,
      reason: s.reason,
    })),
  );
  if (values.json) {
    printJson({
      corpus: spec,
      docs: corpus.docs.length,
      types: rows,
      documents: typed.map((t) => ({ doc: t.doc, type: t.type })),
      ...(values.sections ? { sections } : {}),
    });
    return 0;
  }
  const table = formatTable(
    numberColumns("type", "documents", "sections", "characters", "share"),
    rows.map((r) => [r.type, thousands(r.docs), thousands(r.sections), thousands(r.chars), pct(r.charsPct / 100)]),
  );
  const lines = [`corpus ${describeCorpus(spec, corpus)}`, "", table];
  if (values.sections) {
    const sectionRows = sections.map((s) => ({
      document: s.doc,
      heading: s.heading ?? "(before the first heading)",
      type: s.type,
      chars: thousands(s.end - s.start),
      rule: s.reason,
    }));
    const headers = ["document", "heading", "type", "chars", "rule"];
    lines.push(
      "",
      formatRecords(sectionRows, (header) => header === "chars", headers),
    );
  }
  lines.push("", "Rules: seamlab types --rules. Override with --types FILE.");
  process.stdout.write(lines.join("\n") + "\n");
  return 0;
}

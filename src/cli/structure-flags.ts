/** Flags of the `structure` splitter and of type-aware commands; they become the config's `extra` (cache key). */
import { existsSync, readFileSync } from "node:fs";
import { SeamlabError } from "../core/errors";
import { readTypeOverrides, type TypeOverride } from "../corpus/type-overrides";
import type { LoadedCorpus } from "../corpus/load";
import { classifyDoc } from "../corpus/doc-types";
import { measureStructureDamage, structureLimitUnit, type StructureDamage } from "../measure/structure-damage";
import type { SplitterConfig } from "../splitters/config";
import { damageRateRows } from "../study/structure-damage";
import { flagOptions, intFlag, type FlagValues } from "./flags";
import { pct, pctInterval } from "../study/format";
import { thousands } from "../stats/format";
import { formatTable, numberColumns } from "./format";

export const structureFlags = flagOptions(["per-type", "hard-limit", "types"]);

export const structureFlagsHelp = `  --types FILE       type overrides, one "PATTERN TYPE" per line (glob over \
document ids, or
                     "heading: /regex/"), applied before the built-in rules (see seamlab types --rules)
  --per-type JSON    structure splitter: size/overlap per type, as JSON or a JSON file, e.g.
                     '{"faq":{"size":600,"overlap":0},"prose":{"size":1000,"overlap":200}}'
  --hard-limit N     structure splitter: keep code blocks, tables, FAQ pairs and turns whole up to N
                     chars (default 2 x --size)`;

export function typeOverridesFromFlags(values: FlagValues): TypeOverride[] {
  const path = values.types;
  if (path === undefined) return [];
  if (typeof path !== "string" || !existsSync(path))
    throw new SeamlabError(`--types: file "${String(path)}" not found.`);
  return readTypeOverrides(path);
}

/** `--per-type` as an object: inline JSON (starting with "{") or the path of a JSON file. */
function perTypeFromFlags(values: FlagValues): Record<string, unknown> | undefined {
  const raw = values["per-type"];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  let json = text;
  let where = "--per-type";
  if (!text.startsWith("{")) {
    if (!existsSync(text))
      throw new SeamlabError(`--per-type: "${text}" is neither JSON (starting with "{") nor a file.`);
    json = readFileSync(text, "utf8");
    where = `--per-type file ${text}`;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new SeamlabError(`${where}: invalid JSON (${(error as Error).message}).`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new SeamlabError(`${where}: must be a JSON object of type -> {"size":N,"overlap":N}.`);
  return parsed as Record<string, unknown>;
}

/** The `extra` options these flags give a splitter config (undefined when none is set). */
export function structureExtraFromFlags(values: FlagValues): Record<string, unknown> | undefined {
  const extra: Record<string, unknown> = {};
  const perType = perTypeFromFlags(values);
  if (perType) extra.perType = perType;
  if (values["hard-limit"] !== undefined)
    extra.hardLimit = intFlag(values, "hard-limit", undefined, { min: 1, max: 10_000_000, unit: "chars" });
  const types = typeOverridesFromFlags(values);
  if (types.length > 0)
    extra.types = types.map(({ glob, heading, type }) => ({
      ...(glob ? { glob } : {}),
      ...(heading ? { heading } : {}),
      type,
    }));
  return Object.keys(extra).length > 0 ? extra : undefined;
}

type StructureDamageReport = ReturnType<typeof structureDamageReport>;

/** Structural damage of a split corpus, with the --types overrides and the hard limit (default 2 x size). */
export function structureDamageOf(
  corpus: LoadedCorpus,
  config: SplitterConfig,
  chunks: Parameters<typeof measureStructureDamage>[1],
  values: FlagValues,
): StructureDamageReport {
  const overrides = typeOverridesFromFlags(values);
  const typed = corpus.docs.map((doc) => classifyDoc(doc, overrides));
  const limit = structureLimitOf(config);
  const unit = structureLimitUnit(config);
  const damage = measureStructureDamage(corpus.docs, chunks, { typed, limit, unit, encoding: config.encoding });
  return structureDamageReport(config, damage);
}

/** Units longer than this many chars are counted apart: the structure splitter's hard limit, default 2 x size. */
export function structureLimitOf(config: SplitterConfig): number {
  const hardLimit = config.extra?.hardLimit;
  return typeof hardLimit === "number" ? hardLimit : 2 * config.size;
}

/** The report of structural damage already measured (e.g. summed document by document). */
export function structureDamageReport(config: SplitterConfig, damage: StructureDamage) {
  return {
    limit: damage.limit,
    limitUnit: damage.limitUnit ?? ("chars" as const),
    seams: damage.seams,
    rows: damageRateRows(config.splitter, damage),
    units: damage.kinds,
  };
}

export function structureDamageText(report: StructureDamageReport): string {
  const all = report.rows.filter((r) => r.type === "all");
  const kindTable = formatTable(
    numberColumns(
      "structural damage (per seam)",
      "seams",
      "rate [95% CI]",
      "units cut/units",
      `cuts in units > ${report.limit}`,
    ),
    all.map((r) => {
      const units = r.kind === "any" ? undefined : report.units[r.kind];
      return [
        r.label,
        thousands(r.damaged),
        `${pct(r.value)} ${pctInterval(r)}`,
        units ? `${thousands(units.unitsCut)}/${thousands(units.units)}` : "",
        r.kind === "any" ? "" : thousands(r.inOversize),
      ];
    }),
  );
  const byType = report.rows.filter((r) => r.type !== "all" && r.kind === "any");
  const typeTable = formatTable(
    numberColumns("type of the section cut", "seams", "damaged", "rate [95% CI]"),
    byType.map((r) => [r.type, thousands(r.seams), thousands(r.damaged), `${pct(r.value)} ${pctInterval(r)}`]),
  );
  return (
    `${kindTable}\n\n${typeTable}\n(seams cutting only units longer than ${report.limit} ${report.limitUnit} are counted ` +
    `apart: no chunk can hold them whole)`
  );
}

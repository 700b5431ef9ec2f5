// A chosen-config export is trusted only when it carries the marker, replaced only with --force and only when it is
// an export itself, and written in one rename.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { writeFileAtomic } from "../core/atomic-write";
import { SeamlabError } from "../core/errors";
import { EXPORT_FORMAT, EXPORT_MARKER, type ChosenExport } from "./export";

/** Where an export goes: checked before the sweep runs, so a refusal costs nothing. */
export type ExportTarget = { path: string; force: boolean };

function isChosenExport(path: string): boolean {
  try {
    return valueAt(JSON.parse(readFileSync(path, "utf8")), "seamlabExport") === EXPORT_MARKER;
  } catch {
    return false;
  }
}

/** The export target from `--export PATH` / `--force`, refused before any work. */
export function exportTarget(path: string | undefined, force: boolean): ExportTarget | undefined {
  if (path === undefined) {
    if (force) throw new SeamlabError("--force only applies to --export: add --export chosen.json or drop --force.");
    return undefined;
  }
  if (path.trim() === "") throw new SeamlabError("--export needs a file name, e.g. --export chosen.json.");
  const full = resolve(path);
  const folder = dirname(full);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new SeamlabError(`--export ${path}: the folder ${folder} does not exist; create it or export elsewhere.`);
  if (existsSync(full)) {
    if (statSync(full).isDirectory())
      throw new SeamlabError(`--export ${path} is a folder; give a file name, e.g. ${path}/chosen.json.`);
    if (!force)
      throw new SeamlabError(
        `--export ${path} already exists; pass --force to replace it (only a seamlab export is ever replaced).`,
      );
    if (!isChosenExport(full))
      throw new SeamlabError(
        `--export ${path} exists and is not a seamlab export (no "seamlabExport" marker): seamlab replaces only ` +
          `files it wrote, even with --force. Move it away or export to another name.`,
      );
  }
  return { path: full, force };
}

/** Writes the export in one rename; re-checks the target, since the sweep ran in between. */
export function writeChosenExport(target: ExportTarget, data: ChosenExport): void {
  exportTarget(target.path, target.force);
  writeFileAtomic(target.path, JSON.stringify(data, null, 2) + "\n", { exclusive: !target.force });
}

type Shape = "string" | "number" | "object" | "boolean" | "array" | "string|null" | "number|null";
type Fields = { [field: string]: Shape | Fields }; // an object field holds its own required fields

const REQUIRED: Fields = {
  format: "number",
  seamlab: { version: "string", commit: "string|null" },
  corpus: { spec: "string", name: "string", hash: "string" },
  queries: { source: "string", count: "number", hash: "string" },
  margin: "number",
  verdict: { state: "string", headline: "string" },
  chosen: {
    name: "string",
    splitter: { splitter: "string", size: "number", overlap: "number" },
    retrieval: { k: "number" },
  },
  rerun: { argv: "array" },
};

/** Each required field's path ("chosen.splitter.size") and shape, an object before its fields. */
function requiredFields(fields: Fields, prefix = ""): [string, Shape][] {
  return Object.entries(fields).flatMap(([name, shape]): [string, Shape][] =>
    typeof shape === "string"
      ? [[prefix + name, shape]]
      : [[prefix + name, "object"], ...requiredFields(shape, `${prefix}${name}.`)],
  );
}

function valueAt(data: unknown, path: string): unknown {
  let value = data;
  for (const key of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function hasShape(value: unknown, shape: Shape): boolean {
  if (shape === "array") return Array.isArray(value);
  if (shape === "object") return value !== null && typeof value === "object" && !Array.isArray(value);
  if (shape.endsWith("|null") && value === null) return true;
  return typeof value === shape.replace("|null", "");
}

/** The `--margin` in a re-run argv, as a proportion (default 1 point), or undefined when unreadable. */
function marginOfArgv(argv: readonly string[]): number | undefined {
  let text = "1";
  argv.forEach((item, i) => {
    if (item === "--margin") text = argv[i + 1] ?? "";
    else if (item.startsWith("--margin=")) text = item.slice("--margin=".length);
  });
  const value = Number(text);
  return Number.isFinite(value) ? value / 100 : undefined;
}

/** Reads and checks an export: a SeamlabError naming the file and the field for anything that is not one. */
export function readChosenExport(path: string): ChosenExport {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SeamlabError(
      code === "ENOENT"
        ? `${path} does not exist; write one with seamlab sweep --export ${path}.`
        : `${path} cannot be read (${code ?? String(error)}).`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SeamlabError(`${path} is not JSON (${(error as Error).message}); is it a seamlab export?`);
  }
  if (valueAt(data, "seamlabExport") !== EXPORT_MARKER)
    throw new SeamlabError(
      `${path} is not a seamlab export (no "seamlabExport": "${EXPORT_MARKER}" field); ` +
        `write one with seamlab sweep --export ${path}.`,
    );
  const format = valueAt(data, "format");
  if (typeof format === "number" && format > EXPORT_FORMAT)
    throw new SeamlabError(
      `${path} is export format ${format}, newer than this seamlab reads (${EXPORT_FORMAT}); update seamlab.`,
    );
  for (const [field, shape] of requiredFields(REQUIRED)) {
    if (!hasShape(valueAt(data, field), shape))
      throw new SeamlabError(`${path}: field "${field}" is missing or not a ${shape}; the file is damaged or edited.`);
  }
  const exported = data as ChosenExport;
  if (!exported.rerun.argv.every((item) => typeof item === "string"))
    throw new SeamlabError(`${path}: "rerun.argv" must be a list of strings; the file is damaged or edited.`);
  // The re-run flags decide what check runs; a margin edited in one place only would check something else.
  const argvMargin = marginOfArgv(exported.rerun.argv);
  if (argvMargin === undefined || Math.abs(argvMargin - exported.margin) > 1e-9)
    throw new SeamlabError(
      `${path}: "margin" is ${exported.margin} but rerun.argv runs with a margin of ` +
        `${argvMargin === undefined ? "an unreadable value" : argvMargin}; edit both (margin is a proportion, ` +
        `--margin in points) or export again.`,
    );
  return exported;
}

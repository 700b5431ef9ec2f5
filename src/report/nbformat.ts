// The slice of nbformat 4 that seamlab reads and writes.
import { readFileSync } from "node:fs";
import { SeamlabError } from "../core/errors";

export type MimeBundle = Record<string, unknown>;

export type Output =
  | { output_type: "stream"; name: "stdout" | "stderr"; text: string | string[] }
  | { output_type: "display_data"; data: MimeBundle; metadata: Record<string, unknown> }
  | {
      output_type: "execute_result";
      data: MimeBundle;
      metadata: Record<string, unknown>;
      execution_count: number | null;
    }
  | { output_type: "error"; ename: string; evalue: string; traceback: string[] };

export interface CodeCell {
  cell_type: "code";
  id?: string;
  source: string | string[];
  metadata: Record<string, unknown>;
  outputs: Output[];
  execution_count: number | null;
}

export interface TextCell {
  cell_type: "markdown" | "raw";
  id?: string;
  source: string | string[];
  metadata: Record<string, unknown>;
  attachments?: Record<string, MimeBundle>;
}

export type Cell = CodeCell | TextCell;

export interface Notebook {
  nbformat: number;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: Cell[];
}

export function joinSource(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join("") : (source ?? "");
}

/** Splits text into nbformat's multiline-string form (lines keep their "\n"). */
export function splitLines(text: string): string[] {
  return text.split(/(?<=\n)/).filter((line) => line !== "");
}

export function cellTags(cell: Cell): string[] {
  const tags = cell.metadata?.tags;
  return Array.isArray(tags) ? tags.map(String) : [];
}

export function readNotebook(path: string): Notebook {
  let parsed: Partial<Notebook> | null;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SeamlabError(`${path}: not a readable JSON notebook (${(error as Error).message}).`);
  }
  if (!parsed || parsed.nbformat !== 4 || !Array.isArray(parsed.cells)) {
    throw new SeamlabError(`${path}: not an nbformat 4 notebook (expected "nbformat": 4 and a "cells" array).`);
  }
  return parsed as Notebook;
}

/** Serialised like Jupyter (1-space indent, trailing newline), so diffs of executed notebooks stay small. */
export function serializeNotebook(notebook: Notebook): string {
  return JSON.stringify(notebook, null, 1) + "\n";
}

export const parametersCell = (notebook: Notebook) => notebook.cells.find((c) => cellTags(c).includes("parameters"));

/** The names a notebook's `parameters` cell declares (`const size = 1000;` → "size"), in order. */
export function declaredParameters(notebook: Notebook): string[] {
  const source = joinSource(parametersCell(notebook)?.source);
  return Array.from(source.matchAll(/^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm), (match) => match[1]);
}

/**
 * The literal values of a notebook's `parameters` cell (`const overlaps = [0, 50]; // why` → `{ overlaps: [0, 50] }`),
 * read as JSON once bare keys are quoted and trailing commas dropped; anything else (an expression) is left out.
 */
export function parameterValues(notebook: Notebook): Record<string, unknown> {
  const cell = parametersCell(notebook);
  const values: Record<string, unknown> = {};
  if (!cell) return values;
  const source = joinSource(cell.source).replace(/\s*\/\/[^\n"]*$/gm, "");
  for (const match of source.matchAll(/^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=\n]+)?=\s*([^;]*);/gm)) {
    const json = match[2].replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":').replace(/,(\s*[\]}])/g, "$1");
    try {
      values[match[1]] = JSON.parse(json);
    } catch {
      // not a literal: left out
    }
  }
  return values;
}

export function declaredSettings(notebook: Notebook, settings: Record<string, unknown>): Record<string, unknown> {
  const declared = new Set(declaredParameters(notebook));
  return Object.fromEntries(Object.entries(settings).filter(([name]) => declared.has(name)));
}

/**
 * Papermill-style injection: a code cell tagged `injected-parameters` right after the one tagged `parameters` (or
 * first), redeclaring each name (tslab lets a later cell redeclare a `const`). An earlier injected cell is replaced.
 */
export function injectParameters(notebook: Notebook, parameters: Record<string, unknown>): Notebook {
  const names = Object.keys(parameters).sort();
  for (const name of names) {
    if (!/^[A-Za-z_$][\w$]*$/.test(name))
      throw new SeamlabError(`parameter "${name}" is not a valid TypeScript identifier.`);
  }
  const cells = notebook.cells.filter((cell) => !cellTags(cell).includes("injected-parameters"));
  if (names.length === 0) return { ...notebook, cells };
  const lines = [
    "// Parameters injected by `seamlab report`",
    // JSON is valid TypeScript for every value a parameter takes.
    ...names.map((n) => `const ${n} = ${parameters[n] === undefined ? "undefined" : JSON.stringify(parameters[n])};`),
  ];
  const injected: CodeCell = {
    cell_type: "code",
    // Cell ids exist from nbformat 4.5 on; 4.4's schema rejects them.
    ...(notebook.nbformat_minor >= 5 ? { id: "injected-parameters" } : {}),
    source: splitLines(lines.join("\n")),
    metadata: { tags: ["injected-parameters"] },
    outputs: [],
    execution_count: null,
  };
  const at = cells.findIndex((cell) => cellTags(cell).includes("parameters"));
  const next = [...cells];
  next.splice(at + 1, 0, injected);
  return { ...notebook, cells: next };
}

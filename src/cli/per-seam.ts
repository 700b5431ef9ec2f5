/** `seamlab seams --per-seam FILE [--text]`: one JSON line per seam, or with --text each seam's text (JSON or a page). */
import { SeamlabError } from "../core/errors";
import type { CorpusStream } from "../corpus/load";
import type { DocSeams } from "../measure/doc-seams";
import { seamText } from "../measure/seam-text";
import { seamTextPageFoot, seamTextPageHead, seamTextRowsHtml, type SeamTextRow } from "../notebook/seam-text-html";
import { intFlag } from "./flags";

function perSeamRecord(part: DocSeams, i: number, tokens: boolean): Record<string, unknown> {
  return {
    doc: part.doc,
    index: i,
    prevEnd: part.spans[2 * i + 1],
    nextStart: part.spans[2 * (i + 1)],
    overlap: part.overlaps[i],
    gap: part.gaps[i],
    gapLostChars: part.gapLostChars[i],
    ...(tokens ? { overlapTokens: part.overlapTokens?.[i] ?? 0 } : {}),
  };
}

export function perSeamLines(part: DocSeams, tokens: boolean): string {
  return part.overlaps.map((_, i) => JSON.stringify(perSeamRecord(part, i, tokens)) + "\n").join("");
}

/** A `--per-seam` file name that asks for an HTML page (.html or .htm). */
export function isHtmlPath(path: string | undefined): boolean {
  return path !== undefined && /\.html?$/i.test(path);
}

/** `--text-chars` (default 80) with `--text`, else undefined; both need `--per-seam`, .html needs --text. */
export function perSeamTextChars(values: Record<string, unknown>, perSeamPath: string | undefined): number | undefined {
  if (values.text !== true) {
    if (values["text-chars"] !== undefined) throw new SeamlabError("--text-chars goes with --text; add --text.");
    if (isHtmlPath(perSeamPath))
      throw new SeamlabError(`--per-seam ${perSeamPath}: an HTML page shows each seam's text; add --text.`);
    return undefined;
  }
  if (perSeamPath === undefined)
    throw new SeamlabError("--text adds each seam's text to --per-seam FILE; add --per-seam FILE (.jsonl or .html).");
  return intFlag(values, "text-chars", 80, { min: 0, max: 100_000 });
}

export interface SeamTextParts {
  corpus: CorpusStream;
  withSeams: ReadonlyMap<string, DocSeams>;
  tokens: boolean;
  chars: number;
}

/** Each seam's row with its text, document by document in corpus order (reading only documents with seams). */
function* seamTextRows(parts: SeamTextParts): Generator<{ part: DocSeams; rows: SeamTextRow[] }> {
  if (parts.withSeams.size === 0) return;
  for (const doc of parts.corpus.docs(new Set(parts.withSeams.keys()))) {
    const part = parts.withSeams.get(doc.id);
    if (!part) continue;
    const rows = part.overlaps.map((overlap, i) => ({
      doc: part.doc,
      index: i,
      overlap,
      ...seamText(doc.text, part.spans[2 * i + 1], part.spans[2 * (i + 1)], parts.chars),
    }));
    yield { part, rows };
  }
}

/** JSON lines as `perSeamLines` writes them, each with its text (plain). */
export function* seamTextLines(parts: SeamTextParts): Generator<string> {
  for (const { part, rows } of seamTextRows(parts)) {
    yield rows
      .map(({ before, shared, between, after }, i) => {
        const record = { ...perSeamRecord(part, i, parts.tokens), before, shared, between, after };
        return JSON.stringify(record) + "\n";
      })
      .join("");
  }
}

/** The per-seam HTML page (notebook/seam-text-html), written piece by piece. */
export function writeSeamTextPage(file: { write(data: string): void }, parts: SeamTextParts, lines: string[]): void {
  file.write(seamTextPageHead("Seams and their text", lines));
  for (const { rows } of seamTextRows(parts)) file.write(seamTextRowsHtml(rows));
  file.write(seamTextPageFoot());
}

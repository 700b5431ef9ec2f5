/** `seamlab seams --per-seam FILE [--text]`: one JSON line per seam, or with --text each seam's text (JSON or a page). */
import { SeamlabError } from "../core/errors";
import type { CorpusStream } from "../corpus/load";
import type { DocSeams } from "../measure/doc-seams";
import { seamText } from "../measure/seam-text";
import { seamTextPageFoot, seamTextPageHead, seamTextRowsHtml, type SeamTextRow } from "../notebook/seam-text-html";
import { lockOutput } from "../core/output-lock";
import { intFlag, type FlagValues } from "./flags";
import { openOutputFile, refuseToOverwrite } from "./format";

/** A `--per-seam` file name that asks for an HTML page (.html or .htm). */
function isHtmlPath(path: string | undefined): boolean {
  return path !== undefined && /\.html?$/i.test(path);
}

/** `--text-chars` (default 80) with `--text`, else undefined; both need `--per-seam`, .html needs --text. */
function perSeamTextChars(values: FlagValues, perSeamPath: string | undefined): number | undefined {
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

/**
 * `--per-seam FILE [--text]`, checked and locked at once. Without --text each document's seams are written as measured;
 * with it, `finish` writes the kept documents' seams with their text once the sample is settled (parts hold no text).
 */
export function perSeamOutput(values: FlagValues) {
  const path = values["per-seam"] === undefined ? undefined : String(values["per-seam"]);
  const chars = perSeamTextChars(values, path);
  if (path === undefined) return undefined;
  const force = values.force === true;
  refuseToOverwrite(path, force, "--per-seam");
  lockOutput(path, { flag: "--per-seam", command: "seams", kind: "file" });
  return {
    open(corpus: CorpusStream, tokens: boolean) {
      const file = openOutputFile(path, { force, flag: "--per-seam" });
      const withSeams = new Map<string, DocSeams>();
      const jsonLine = (part: DocSeams, i: number, text = {}) =>
        JSON.stringify({
          doc: part.doc,
          index: i,
          prevEnd: part.spans[2 * i + 1],
          nextStart: part.spans[2 * (i + 1)],
          overlap: part.overlaps[i],
          gap: part.gaps[i],
          gapLostChars: part.gapLostChars[i],
          ...(tokens ? { overlapTokens: part.overlapTokens?.[i] ?? 0 } : {}),
          ...text,
        }) + "\n";
      return {
        onResult(part: DocSeams) {
          if (chars === undefined) file.write(part.overlaps.map((_, i) => jsonLine(part, i)).join(""));
          else if (part.overlaps.length > 0) withSeams.set(part.doc, part);
        },
        abort: () => file.abort(),
        /** Writes each seam's text (with --text; `pageLines` head an HTML page) and commits FILE. */
        finish(pageLines: string[]) {
          if (chars !== undefined) {
            try {
              const html = isHtmlPath(path);
              if (html) file.write(seamTextPageHead("Seams and their text", pageLines));
              for (const { part, rows } of seamTextRows(corpus, withSeams, chars)) {
                const text = ({ before, shared, between, after }: SeamTextRow, i: number) =>
                  jsonLine(part, i, { before, shared, between, after });
                file.write(html ? seamTextRowsHtml(rows) : rows.map(text).join(""));
              }
              if (html) file.write(seamTextPageFoot());
            } catch (error) {
              file.abort();
              throw error;
            }
          }
          file.commit();
        },
      };
    },
  };
}

/** Each seam's row with its text, document by document in corpus order (reading only documents with seams). */
function* seamTextRows(
  corpus: CorpusStream,
  withSeams: ReadonlyMap<string, DocSeams>,
  chars: number,
): Generator<{ part: DocSeams; rows: SeamTextRow[] }> {
  if (withSeams.size === 0) return;
  for (const doc of corpus.docs(new Set(withSeams.keys()))) {
    const part = withSeams.get(doc.id);
    if (!part) continue;
    const rows = part.overlaps.map((overlap, i) => ({
      doc: part.doc,
      index: i,
      overlap,
      ...seamText(doc.text, part.spans[2 * i + 1], part.spans[2 * (i + 1)], chars),
    }));
    yield { part, rows };
  }
}

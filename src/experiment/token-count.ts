import type { Chunk, Doc } from "../core/types";
import { lowerBound } from "../core/sorted";
import { defaultEncoding, rankTable, tokenCounter } from "../text/tokens";

export interface DocPieces {
  /** End offset of every pre-tokenisation piece of the document, ascending. */
  ends: Int32Array;
  /** cumulative[i] = tokens in pieces 0..i-1. */
  cumulative: Float64Array;
}

/**
 * Counts the tokens of many chunks of the same documents: each document is pre-tokenised once with running totals,
 * and a verbatim slice costs only its first and last pieces. Once a chunk piece ends on a document piece boundary the
 * left-to-right regex agrees with the document's, as long as no match looks past the chunk's end (hence one whole
 * piece of margin before the end, re-tokenised from the text). Tested equal to js-tiktoken over a real corpus.
 */
export function chunkTokenCounter(
  docs: readonly Doc[],
  encoding: string = defaultEncoding,
  known?: (docIndex: number) => DocPieces | undefined,
): (chunk: Chunk) => number {
  const count = tokenCounter(encoding);
  const regex = pieceRegexOf(encoding);
  const byId = new Map(docs.map((doc, i) => [doc.id, i]));
  const piecesById = new Map<string, DocPieces>();
  const piecesOf = (doc: Doc, docIndex: number): DocPieces => {
    let pieces = piecesById.get(doc.id);
    if (!pieces) {
      pieces = known?.(docIndex) ?? documentPieces(doc.text, encoding);
      piecesById.set(doc.id, pieces);
    }
    return pieces;
  };
  return (chunk) => {
    const docIndex = byId.get(chunk.doc);
    const doc = docIndex === undefined ? undefined : docs[docIndex];
    const length = chunk.end - chunk.start;
    if (!doc || chunk.text.length !== length || !doc.text.startsWith(chunk.text, chunk.start)) return count(chunk.text);
    const { ends, cumulative } = piecesOf(doc, docIndex as number);
    const text = chunk.text;
    // The last document boundary that is followed by a whole piece ending before the chunk's last char.
    const last = lowerBound(ends, chunk.end - 1) - 1; // the largest index with ends[last] < end - 1, or -1
    const tailFrom = last >= 1 ? ends[last - 1] : -1; // ends[last - 1] is followed by piece `last`, inside the chunk
    let total = 0;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
      total += count(m[0]);
      const absoluteEnd = chunk.start + m.index + m[0].length;
      if (absoluteEnd >= tailFrom || tailFrom < 0) continue;
      const at = lowerBound(ends, absoluteEnd); // ends ascend without repeats: a match sits at the lower bound
      if (ends[at] !== absoluteEnd) continue;
      // Resynchronised at document piece `at`: take the document's pieces up to tailFrom, then finish from the text.
      total += cumulative[last] - cumulative[at + 1]; // pieces at + 1 .. last - 1
      regex.lastIndex = tailFrom - chunk.start;
      for (let t = regex.exec(text); t !== null; t = regex.exec(text)) total += count(t[0]);
      return total;
    }
    return total;
  };
}

const pieceRegexOf = (encoding: string) => new RegExp(rankTable(encoding).patStr, "ug");

/** A document's pre-tokenisation pieces with running token totals (pure: a thread may compute it for another). */
export function documentPieces(text: string, encoding: string = defaultEncoding): DocPieces {
  const count = tokenCounter(encoding);
  const regex = pieceRegexOf(encoding);
  const ends: number[] = [];
  const cumulative: number[] = [0];
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    ends.push(m.index + m[0].length);
    cumulative.push(cumulative[cumulative.length - 1] + count(m[0]));
  }
  return { ends: Int32Array.from(ends), cumulative: Float64Array.from(cumulative) };
}

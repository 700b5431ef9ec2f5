// The smallest case that shows chunk_overlap is a maximum: three paragraphs each longer than the overlap
// budget, joined by blank lines, split at size/overlap. A recursive splitter only carries whole pieces over.
import type { Chunk, Doc } from "../core/types";
import { splitDoc } from "../splitters/registry";

const WORDS = ["the", "whale", "sea", "ship", "crew", "rope", "deck", "wind", "oar", "mast", "harpoon", "captain"];

/** A paragraph of exactly `length` characters (words and spaces, ending in a full stop), deterministic per `seed`. */
export function fillerParagraph(length: number, seed: number): string {
  let text = "";
  for (let i = 0; text.length < length; i++) text += (i === 0 ? "" : " ") + WORDS[(i * 7 + seed * 5) % WORDS.length];
  return text.slice(0, length - 1).replace(/\s+$/, "x") + ".";
}

/** Three (or `count`) paragraphs of `paragraphLength` characters joined by "\n\n", as one document. */
export function reproDoc(paragraphLength = 599, count = 3): Doc {
  const paragraphs = Array.from({ length: count }, (_, i) => fillerParagraph(paragraphLength, i + 1));
  return { id: `${count}x${paragraphLength}-chars`, text: paragraphs.join("\n\n") };
}

export type ReproRow = {
  splitter: string;
  chunk: number;
  start: number;
  end: number;
  length: number;
  /** Characters this chunk shares with the previous one (from the spans). */
  sharedWithPrevious: number | null;
};

/** Splits the repro document with each splitter at size/overlap and lists the chunks with their real overlap. */
export function reproRows(doc: Doc, splitters: readonly string[], size: number, overlap: number): ReproRow[] {
  const rows: ReproRow[] = [];
  for (const splitter of splitters) {
    const chunks: Chunk[] = splitDoc(doc, { splitter, size, overlap });
    chunks.forEach((chunk, i) => {
      const previous = i > 0 ? chunks[i - 1] : undefined;
      rows.push({
        splitter,
        chunk: i + 1,
        start: chunk.start,
        end: chunk.end,
        length: chunk.text.length,
        sharedWithPrevious: previous
          ? Math.max(0, Math.min(previous.end, chunk.end) - Math.max(previous.start, chunk.start))
          : null,
      });
    });
  }
  return rows;
}

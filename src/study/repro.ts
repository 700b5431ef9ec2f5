// The smallest case that shows chunk_overlap is a maximum: paragraphs longer than the overlap budget (a recursive
// splitter only carries whole pieces over).
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

/** `sharedWithPrevious`: characters the chunk shares with the previous one (from the spans). */
export type ReproRow = ReturnType<typeof reproRows>[number];

/** Splits the repro document with each splitter at size/overlap and lists the chunks with their real overlap. */
export function reproRows(doc: Doc, splitters: readonly string[], size: number, overlap: number) {
  return splitters.flatMap((splitter) => {
    const chunks: Chunk[] = splitDoc(doc, { splitter, size, overlap });
    return chunks.map(({ start, end, text }, i) => {
      const previous = i > 0 ? chunks[i - 1] : undefined;
      const sharedWithPrevious = previous
        ? Math.max(0, Math.min(previous.end, end) - Math.max(previous.start, start))
        : null;
      return { splitter, chunk: i + 1, start, end, length: text.length, sharedWithPrevious };
    });
  });
}

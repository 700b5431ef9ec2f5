/**
 * The seam viewer's payload for one sample document: 2-3 splitters' spans over a stretch of the text, chosen to
 * start at the chunk before the first seam (of the first splitter) where neighbours share nothing.
 */
import type { Chunk, Doc } from "../core/types";
import { SeamlabError } from "../core/errors";
import { splitDoc } from "../splitters/registry";
import type { SplitterConfig } from "../splitters/config";

export interface SeamViewerSplitter {
  name: string;
  /** Spans in document offsets, in the splitter's order. */
  chunks: { start: number; end: number }[];
}

export interface SeamViewerPayload {
  doc: string;
  /** The stretch of the document shown, and where it starts in the document. */
  text: string;
  offset: number;
  splitters: SeamViewerSplitter[];
  caption?: string;
}

export interface ViewerOptions {
  /** Characters shown (default 3000). */
  length?: number;
  /** Start offset; default: the start of the chunk before the first zero-overlap seam. */
  from?: number;
}

/** Documents "auto" looks through for a seam sharing nothing before it settles for the longest of them. */
const AUTO_SEARCH_DOCS = 200;

/**
 * The document named by `which`: an id, a 0-based index into `docs`, or "auto": the first document (of the first
 * 200) where `autoConfig` leaves a seam sharing nothing, else the longest of them, so the default works on any
 * corpus, one document included. The error for an id or index that is not there lists a few ids.
 */
export function pickDoc(docs: readonly Doc[], which: string | number, autoConfig?: SplitterConfig): Doc {
  if (which === "auto") {
    if (docs.length === 0) throw new SeamlabError("the seam viewer needs a document, and the corpus has none");
    const searched = docs.slice(0, AUTO_SEARCH_DOCS);
    if (autoConfig) {
      const bare = searched.find((d) => firstZeroSeamStart(splitDoc(d, autoConfig)) !== undefined);
      if (bare) return bare;
    }
    return searched.reduce((a, b) => (b.text.length > a.text.length ? b : a));
  }
  const doc = typeof which === "number" ? docs[which] : docs.find((d) => d.id === which);
  if (!doc) {
    const some = docs
      .slice(0, 5)
      .map((d) => d.id)
      .join(", ");
    throw new SeamlabError(
      `viewerDoc ${JSON.stringify(which)} is not a document of this corpus (${docs.length} docs: ${some}, …): ` +
        `use "auto", an id or an index from 0 to ${docs.length - 1}`,
    );
  }
  return doc;
}

/** The start of the chunk before the first seam sharing nothing; undefined when every seam shares text. */
function firstZeroSeamStart(chunks: readonly Chunk[]): number | undefined {
  for (let i = 1; i < chunks.length; i++) if (chunks[i].start >= chunks[i - 1].end) return chunks[i - 1].start;
  return undefined;
}

/** Splits `doc` with each config and cuts the viewer's stretch. At most 3 splitters (the viewer stacks them). */
export function seamViewerPayload(doc: Doc, configs: SplitterConfig[], options: ViewerOptions = {}): SeamViewerPayload {
  if (configs.length === 0 || configs.length > 3) {
    throw new SeamlabError(`the seam viewer shows 1 to 3 splitters, got ${configs.length}`);
  }
  const split = configs.map((config) => ({ config, chunks: splitDoc(doc, config) }));
  const length = Math.max(1, options.length ?? 3000);
  const from = Math.max(0, Math.min(doc.text.length, options.from ?? firstZeroSeamStart(split[0].chunks) ?? 0));
  const to = Math.min(doc.text.length, from + length);
  return {
    doc: doc.id,
    text: doc.text.slice(from, to),
    offset: from,
    splitters: split.map(({ config, chunks }) => ({
      name: `${config.splitter} ${config.size}/${config.overlap}${config.unit === "tokens" ? " tokens" : ""}`,
      chunks: chunks.filter((c) => c.end > from && c.start < to).map((c) => ({ start: c.start, end: c.end })),
    })),
  };
}

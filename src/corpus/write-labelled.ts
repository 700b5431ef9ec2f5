import { stringify } from "csv-stringify/sync";
import type { Doc, Query } from "../core/types";
import { SeamlabError } from "../core/errors";

/** Queries as Chroma's `questions_df.csv`, which `loadLabelledSet` reads back; offsets refer to `docs`. */
export function chromaCsv(queries: readonly Query[], docs: readonly Doc[]): string {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const rows = queries.map((q) => {
    const corpusId = q.doc ?? q.gold[0]?.doc;
    const references = q.gold.map((g) => {
      const doc = byId.get(g.doc);
      if (!doc || g.doc !== corpusId)
        throw new SeamlabError(`query ${q.id}: gold span in "${g.doc}", not in its document "${corpusId}".`);
      return { content: doc.text.slice(g.start, g.end), start_index: g.start, end_index: g.end };
    });
    return [q.text, JSON.stringify(references), corpusId];
  });
  return stringify([["question", "references", "corpus_id"], ...rows]);
}

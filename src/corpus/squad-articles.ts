import { readFileSync } from "node:fs";
import { SeamlabError } from "../core/errors";
import { parseLabelledSet } from "./labelled";
import type { LabelledSet } from "./types";

/** A SQuAD file with each article's paragraphs joined: SQuAD's own are too short for a seam to cut an answer. */
export function squadArticleSet(file: string, options: { skipMalformed?: boolean } = {}): LabelledSet {
  let json: { data?: unknown };
  try {
    json = JSON.parse(readFileSync(file, "utf8")) as { data?: unknown };
  } catch (error) {
    throw new SeamlabError(`${file}: cannot read a SQuAD JSON file (${(error as Error).message}).`);
  }
  if (!Array.isArray(json.data)) throw new SeamlabError(`${file}: missing "data" list (SQuAD format).`);
  const data = json.data.map((article, a) => {
    const { title, paragraphs } = article as { title?: unknown; paragraphs?: unknown };
    if (!Array.isArray(paragraphs)) throw new SeamlabError(`${file}: data[${a}] has no "paragraphs" list.`);
    let context = "";
    const qas: unknown[] = [];
    paragraphs.forEach((paragraph, p) => {
      const { context: text, qas: items } = paragraph as { context?: unknown; qas?: unknown };
      if (typeof text !== "string") throw new SeamlabError(`${file}: data[${a}].paragraphs[${p}] has no "context".`);
      const offset = context === "" ? 0 : context.length + 2;
      context = context === "" ? text : `${context}\n\n${text}`;
      for (const qa of Array.isArray(items) ? items : []) {
        const item = qa as { answers?: unknown };
        const answers = Array.isArray(item.answers)
          ? item.answers.map((answer) => {
              const a = answer as { answer_start?: unknown };
              return typeof a.answer_start === "number" ? { ...a, answer_start: a.answer_start + offset } : a;
            })
          : item.answers;
        qas.push({ ...item, answers });
      }
    });
    const id = typeof title === "string" && title !== "" ? title : `article${a}`;
    return { paragraphs: [{ context, document_id: id, qas }] };
  });
  return parseLabelledSet(JSON.stringify({ data }), file, [], options);
}

import { SeamlabError } from "../core/errors";
import { InputReport, OverLimitPolicy } from "./types";

/** Counts every text over `limit` in `report`, then truncates them or (with "reject") fails naming the first. */
export function applyInputLimit(
  texts: readonly string[],
  limit: number,
  measure: { count(text: string): number; truncate(text: string, limit: number): string },
  policy: OverLimitPolicy,
  report: InputReport,
  embedderName: string,
): string[] {
  if (!Number.isFinite(limit)) return [...texts];
  const over: { at: number; tokens: number }[] = [];
  const out = texts.map((text, i) => {
    const tokens = measure.count(text);
    if (tokens > report.longestTokens) report.longestTokens = tokens;
    if (tokens <= limit) return text;
    over.push({ at: i, tokens });
    return policy === "truncate" ? measure.truncate(text, limit) : text;
  });
  report.overLimit += over.length;
  if (over.length > 0 && policy === "reject") {
    throw new SeamlabError(
      `${embedderName}: ${over.length} of ${texts.length} inputs exceed its ${limit}-token limit ` +
        `(first: input #${over[0].at}, ${over[0].tokens} tokens). Use smaller chunks, or allow truncation ` +
        `(--embed-over-limit truncate), which is counted and reported.`,
    );
  }
  report.truncated += over.length;
  return out;
}

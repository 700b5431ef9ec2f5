import { createHash } from "node:crypto";
import { seededRandom } from "../core/random";
import type { Doc, GoldSpan, Query } from "../core/types";
import { paragraphRegions } from "../text/paragraphs";
import { allocateProportionally } from "./ict-queries";
import { jaccard, termSet, type Span } from "./metrics";
import { tokenize } from "./tokenize";

/**
 * The pure half of `seamlab queries generate`: a question is kept when every excerpt is in its passage's document,
 * it does not copy them and is no near-duplicate of an earlier one; drops are counted.
 */
export type Passage = Span;

/** A question is dropped from these: the share of its word bigrams in its excerpts, its Jaccard with a kept one. */
export const defaultThresholds = { copyThreshold: 0.7, duplicateThreshold: 0.7 };
export type GenerationThresholds = typeof defaultThresholds;

const dropReasons = [
  "requestFailed",
  "malformedReply",
  "excerptNotFound",
  "excerptFromOtherDocument",
  "copiesExcerpt",
  "nearDuplicate",
] as const;
type DropReason = (typeof dropReasons)[number];

/**
 * A seeded sample of `n` passages (stratified over documents, in corpus order): whole paragraphs gathered up to
 * `chars` characters, a longer paragraph alone, cut at `2 × chars`.
 */
export function samplePassages(docs: readonly Doc[], n: number, chars: number, seed: number): Passage[] {
  const perDoc = docs.map((doc) => {
    const passages: Passage[] = [];
    let current: Passage | undefined;
    for (const p of paragraphRegions(doc.text)) {
      if (current && p.end - current.start > chars) {
        passages.push(current);
        current = undefined;
      }
      if (current) current.end = p.end;
      else current = { doc: doc.id, start: p.start, end: Math.min(p.end, p.start + 2 * chars) };
    }
    if (current) passages.push(current);
    return passages.filter((p) => /\p{L}/u.test(doc.text.slice(p.start, p.end)));
  });
  const capacity = perDoc.map((passages) => passages.length);
  const quota = allocateProportionally(n, capacity);
  return perDoc.flatMap((passages, d) => {
    const random = seededRandom((seed * 1_000_003 + d) >>> 0);
    const order = passages.map((p, i) => ({ p, i, r: random() })).sort((a, b) => a.r - b.r || a.i - b.i);
    const taken = order.slice(0, quota[d]).sort((a, b) => a.i - b.i);
    return taken.map((o) => o.p);
  });
}

export const systemPrompt =
  "You write evaluation questions for a search system. You answer with one JSON object and nothing else.";

export function userPrompt(docId: string, passage: string): string {
  return [
    `A passage from the document "${docId}":`,
    "<passage>",
    passage,
    "</passage>",
    "Write one question that a reader could ask and that this passage answers. Rephrase: do not copy a sentence " +
      "of the passage into the question. Then quote the shortest excerpt(s) of the passage that answer it, at most " +
      "three, each copied verbatim, character for character.",
    'Answer with JSON only: {"question": "...", "excerpts": ["...", "..."]}',
  ].join("\n");
}

/** A request's cache key: model, prompts, parameters and the passage text. */
export function requestKey(parts: {
  model: string;
  temperature: number;
  maxTokens: number;
  passage: Passage;
  text: string;
}): string {
  return createHash("sha256")
    .update(JSON.stringify([systemPrompt, userPrompt(parts.passage.doc, parts.text), parts]))
    .digest("hex")
    .slice(0, 24);
}

/** Reads a model's message content: JSON (maybe in a ``` fence or with prose around it) with the two fields. */
export function parseReply(content: unknown): { question: string; excerpts: string[] } | { malformed: string } {
  if (typeof content !== "string") return { malformed: "no message content" };
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(content);
  let text = (fenced ? fenced[1] : content).trim();
  const open = text.indexOf("{");
  const close = text.lastIndexOf("}");
  if (open === -1 || close < open) return { malformed: "not JSON" };
  text = text.slice(open, close + 1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { malformed: "not JSON" };
  }
  const reply = value as { question?: unknown; excerpts?: unknown; excerpt?: unknown };
  const excerpts = Array.isArray(reply.excerpts)
    ? reply.excerpts
    : typeof reply.excerpt === "string"
      ? [reply.excerpt]
      : undefined;
  if (typeof reply.question !== "string" || reply.question.trim() === "") return { malformed: "no question" };
  if (!excerpts || excerpts.length === 0 || !excerpts.every((e) => typeof e === "string" && e.trim() !== ""))
    return { malformed: "no excerpts" };
  return { question: reply.question.replace(/\s+/g, " ").trim(), excerpts: excerpts as string[] };
}

/**
 * Where `excerpt` occurs in `doc`, forgiving whitespace only (a model re-wraps lines; case, punctuation and quotes
 * stay): the occurrence overlapping `near` (its passage) if any, else the first.
 */
export function locateExcerpt(doc: Doc, excerpt: string, near?: { start: number; end: number }): GoldSpan | undefined {
  const words = excerpt.split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
  let first: GoldSpan | undefined;
  for (let m = pattern.exec(doc.text); m !== null; m = pattern.exec(doc.text)) {
    const span = { doc: doc.id, start: m.index, end: m.index + m[0].length };
    if (!near || (span.start < near.end && near.start < span.end)) return span;
    first ??= span;
  }
  return first;
}

const bigrams = (text: string) => {
  const words = tokenize(text);
  return words.slice(1).map((word, i) => `${words[i]} ${word}`);
};

/** Share of the question's word bigrams that occur in the excerpts (1 = copied word for word). */
export function copiedShare(question: string, excerpts: readonly string[]): number {
  const q = bigrams(question);
  if (q.length === 0) return 0;
  const e = new Set(excerpts.flatMap(bigrams));
  return q.filter((b) => e.has(b)).length / q.length;
}

export interface ReplyRecord {
  passage: Passage;
  content?: string; // undefined when every attempt failed
  failure?: string;
  malformed?: string; // the HTTP answer itself was unreadable
}

/** Replies (in passage order) into kept queries and counted drops. */
export function filterReplies(
  replies: readonly ReplyRecord[],
  docs: readonly Doc[],
  thresholds: GenerationThresholds = defaultThresholds,
) {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const dropped = Object.fromEntries(dropReasons.map((r) => [r, 0])) as Record<DropReason, number>;
  const examples: Partial<Record<DropReason, string[]>> = {}; // a few per reason, for the sidecar
  const drop = (reason: DropReason, example: string) => {
    dropped[reason]++;
    const list = (examples[reason] ??= []);
    if (list.length < 3) list.push(example.length > 200 ? `${example.slice(0, 200)}…` : example);
  };
  const queries: Query[] = [];
  const keptTerms: Set<string>[] = [];
  /** A kept question, or why it is dropped and the example to show. */
  const judge = (
    reply: ReplyRecord,
  ): [DropReason, string] | { question: string; gold: GoldSpan[]; terms: Set<string> } => {
    if (reply.malformed !== undefined) return ["malformedReply", reply.malformed];
    if (reply.content === undefined) return ["requestFailed", reply.failure ?? "no reply"];
    const parsed = parseReply(reply.content);
    if ("malformed" in parsed) return ["malformedReply", `${parsed.malformed}: ${reply.content}`];
    const doc = byId.get(reply.passage.doc)!;
    const gold: GoldSpan[] = [];
    for (const excerpt of parsed.excerpts) {
      const span = locateExcerpt(doc, excerpt, reply.passage);
      if (span) gold.push(span);
      else if (docs.some((other) => other !== doc && locateExcerpt(other, excerpt)))
        return ["excerptFromOtherDocument", excerpt];
      else return ["excerptNotFound", excerpt];
    }
    const { question } = parsed;
    if (copiedShare(question, parsed.excerpts) >= thresholds.copyThreshold) return ["copiesExcerpt", question];
    const terms = termSet(question);
    if (keptTerms.some((t) => jaccard(t, terms) >= thresholds.duplicateThreshold)) return ["nearDuplicate", question];
    return { question, gold: gold.sort((a, b) => a.start - b.start), terms };
  };
  for (const reply of replies) {
    const where = `${reply.passage.doc}@${reply.passage.start}`;
    const kept = judge(reply);
    if (Array.isArray(kept)) drop(kept[0], `${where}: ${kept[1]}`);
    else {
      keptTerms.push(kept.terms);
      queries.push({ id: where, text: kept.question, doc: reply.passage.doc, gold: kept.gold });
    }
  }
  return { queries, dropped, examples };
}

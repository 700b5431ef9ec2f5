// The queries that flip between two configs (`seamlab flips`): B wins (B hits, A misses) and B loses. Each row carries
// the gold span, each side's top-k chunks and seams around the gold as plain pieces, which a renderer marks and escapes.
// Notebook 03 reads them between overlap 0 and its verdict's choice.
import type { Chunk, Doc, GoldSpan, Query } from "../core/types";
import { SeamlabError } from "../core/errors";
import type { SplitterConfig } from "../splitters/config";
import { splitCorpusAsync } from "../splitters/registry";
import { evaluateRetriever } from "../retrieval/evaluate-config";
import type { EvaluationOptions, QueryOutcome } from "../retrieval/evaluate";
import { createRetriever } from "../retrieval/factory";
import type { RetrieverSettings } from "../retrieval/types";
import { pairedComparison, type PairedComparison } from "../stats/paired";
import { pText, thousands } from "../stats/format";
import { curveRows, type SweepResult } from "../experiment/sweep";
import type { RetrievalInputs } from "./inputs";
import { pct } from "./format";

/** A stretch of text (gold or not), or a chunk boundary of one side: where a chunk starts or ends. */
export type FlipPiece =
  { kind: "text"; text: string; gold: boolean } | { kind: "seam"; at: number; edge: "start" | "end"; chunk: number };

type Boundary = Omit<Extract<FlipPiece, { kind: "seam" }>, "kind">;

/** One side of a row: `goldView` is the gold span with `context` characters either side, this side's boundaries
 * marked; each top-k chunk's `chunk` is its index (the number seam pieces name), its `pieces` the gold part marked
 * when its text is the source slice. */
export type FlipSide = ReturnType<typeof sideOf>;

/** `goldSpans`: gold spans of the query in all (the row shows one, `gold`: the first the winner holds). */
export type FlipRow = ReturnType<typeof flipRows>["rows"][number];

/** The paired counts from B's side: `wins` are queries B hits and A misses. */
export type FlipsSummary = Pick<
  PairedComparison,
  "queries" | "wins" | "losses" | "ties" | "hitRateA" | "hitRateB" | "mcnemarP"
>;

/** One side as computed: its config, chunks and per-query outcomes (query order). */
export interface FlipsSideInput {
  config: SplitterConfig;
  chunks: readonly Chunk[];
  outcomes: readonly QueryOutcome[];
}

const inside = (chunk: { doc: string; start: number; end: number }, g: GoldSpan) =>
  chunk.doc === g.doc && chunk.start <= g.start && g.end <= chunk.end;

/** Chunk boundaries of one document (not its first or last character), by offset. */
function boundariesOf(chunks: readonly Chunk[], doc: string, length: number): Boundary[] {
  const out: Boundary[] = [];
  chunks.forEach((c, chunk) => {
    if (c.doc !== doc) return;
    if (c.start > 0) out.push({ at: c.start, edge: "start", chunk });
    if (c.end < length) out.push({ at: c.end, edge: "end", chunk });
  });
  return out.sort((x, y) => x.at - y.at || (x.edge === y.edge ? x.chunk - y.chunk : x.edge === "end" ? -1 : 1));
}

/** The boundary closest to the gold span: inside it (distance 0) or the nearest outside; `insideCount`: boundaries
 * strictly inside the gold span. */
export function nearestSeam(boundaries: readonly Boundary[], gold: GoldSpan) {
  const within = (b: Boundary) => b.at > gold.start && b.at < gold.end;
  const distance = (b: Boundary) => (within(b) ? 0 : b.at <= gold.start ? gold.start - b.at : b.at - gold.end);
  // Inside: the one nearest the middle of the gold (where a cut hurts most); outside: the nearest.
  const score = (b: Boundary) => (within(b) ? Math.abs(b.at - (gold.start + gold.end) / 2) - 1e9 : distance(b));
  let best: Boundary | null = null;
  for (const b of boundaries) if (best === null || score(b) < score(best)) best = b;
  const insideCount = boundaries.filter(within).length;
  return best && { ...best, inside: within(best), distance: distance(best), insideCount };
}

/** `text` (which starts at `offset` in its document) cut into pieces: gold or not, and seams where given. */
export function piecesOf(text: string, offset: number, gold: GoldSpan | null, seams: readonly Boundary[]): FlipPiece[] {
  const end = offset + text.length;
  const cuts = new Set<number>([offset, end]);
  if (gold) for (const at of [gold.start, gold.end]) if (at > offset && at < end) cuts.add(at);
  for (const s of seams) if (s.at >= offset && s.at <= end) cuts.add(s.at);
  const points = [...cuts].sort((x, y) => x - y);
  const out: FlipPiece[] = [];
  for (let i = 0; i < points.length; i++) {
    for (const s of seams) if (s.at === points[i]) out.push({ kind: "seam", ...s });
    if (i + 1 === points.length) break;
    const from = points[i];
    const to = points[i + 1];
    const isGold = gold !== null && from >= gold.start && to <= gold.end;
    out.push({ kind: "text", text: text.slice(from - offset, to - offset), gold: isGold });
  }
  return out;
}

function sideOf(
  input: FlipsSideInput,
  position: number,
  gold: GoldSpan,
  doc: Doc,
  boundaries: readonly Boundary[],
  context: number,
) {
  const outcome = input.outcomes[position];
  const from = Math.max(0, gold.start - context);
  const to = Math.min(doc.text.length, gold.end + context);
  const chunks = outcome.ranked.map((index, rank) => {
    const c = input.chunks[index];
    const exact = c.doc === doc.id && doc.text.slice(c.start, c.end) === c.text;
    const pieces: FlipPiece[] = exact
      ? piecesOf(c.text, c.start, gold, [])
      : [{ kind: "text", text: c.text, gold: false }];
    return {
      rank: rank + 1,
      chunk: index,
      doc: c.doc,
      start: c.start,
      end: c.end,
      containsGold: inside(c, gold),
      pieces,
    };
  });
  const view = boundaries.filter((b) => b.at >= from && b.at <= to);
  return {
    hit: outcome.hit,
    seam: nearestSeam(boundaries, gold),
    goldView: piecesOf(doc.text.slice(from, to), from, gold, view),
    chunks,
  };
}

/** The flipping queries of two computed sides (same docs, same queries, same order): B's wins, then its losses. */
export function flipRows(
  docs: readonly Doc[],
  queries: readonly Query[],
  a: FlipsSideInput,
  b: FlipsSideInput,
  options: Pick<FlipsOptions, "context"> = {},
) {
  if (a.outcomes.length !== queries.length || b.outcomes.length !== queries.length)
    throw new SeamlabError("flipRows: both sides must be evaluated on the same queries, in the same order.");
  const context = options.context ?? 80;
  const byId = new Map(docs.map((d) => [d.id, d]));
  const boundaryCache = new Map<string, Boundary[]>();
  const boundaries = (side: FlipsSideInput, doc: Doc) => {
    const key = `${side === a ? "a" : "b"}\u0000${doc.id}`;
    if (!boundaryCache.has(key)) boundaryCache.set(key, boundariesOf(side.chunks, doc.id, doc.text.length));
    return boundaryCache.get(key)!;
  };
  const rows = queries.flatMap((query, position) => {
    const hitA = a.outcomes[position].hit;
    const hitB = b.outcomes[position].hit;
    if (hitA === hitB) return [];
    const winner = hitB ? b : a;
    const held = query.gold.find((g) => winner.outcomes[position].ranked.some((i) => inside(winner.chunks[i], g)));
    const gold = held ?? query.gold[0];
    const doc = byId.get(gold.doc);
    if (!doc) throw new SeamlabError(`flipRows: query ${query.id}'s gold span names document ${gold.doc}, not given.`);
    const outcome: "b wins" | "b loses" = hitB ? "b wins" : "b loses";
    return {
      id: query.id,
      query: query.text,
      outcome,
      gold: { ...gold, text: doc.text.slice(gold.start, gold.end) },
      goldSpans: query.gold.length,
      a: sideOf(a, position, gold, doc, boundaries(a, doc), context),
      b: sideOf(b, position, gold, doc, boundaries(b, doc), context),
    };
  });
  rows.sort((x, y) => (x.outcome === y.outcome ? 0 : x.outcome === "b wins" ? -1 : 1));
  const hits = (side: FlipsSideInput) => side.outcomes.map((o) => o.hit);
  const paired = pairedComparison(hits(a), hits(b));
  // pairedComparison counts from A's side: its wins are B's losses.
  const { ties, hitRateA, hitRateB, mcnemarP } = paired;
  return {
    summary: { queries: queries.length, wins: paired.losses, losses: paired.wins, ties, hitRateA, hitRateB, mcnemarP },
    rows,
  };
}

export interface FlipsOptions extends EvaluationOptions {
  retriever?: string;
  retrieverSettings?: RetrieverSettings;
  /** characters shown either side of the gold span (default 80) */
  context?: number;
}

export async function computeFlips(
  docs: readonly Doc[],
  queries: readonly Query[],
  configA: SplitterConfig,
  configB: SplitterConfig,
  options: FlipsOptions = {},
) {
  const side = async (config: SplitterConfig): Promise<FlipsSideInput> => {
    const chunks = await splitCorpusAsync(docs as Doc[], config);
    const retriever = await createRetriever(options.retriever ?? "bm25", chunks, options.retrieverSettings ?? {});
    const evaluation = await evaluateRetriever(docs, queries, config, chunks, retriever, options);
    return { config, chunks, outcomes: evaluation.outcomes };
  };
  const a = await side(configA);
  const b = await side(configB);
  return flipRows(docs, queries, a, b, options);
}

/** Plain rows for a notebook table or markdown: one line per flipping query. */
export function flipTableRows(rows: readonly FlipRow[]): Record<string, string | number>[] {
  const seamText = (s: FlipSide) =>
    s.seam === null
      ? "no seam in the document"
      : s.seam.inside
        ? `${s.seam.insideCount} inside the gold`
        : `nearest ${s.seam.distance} chars away`;
  return rows.map((row) => ({
    query: row.query,
    outcome: row.outcome,
    gold: `${row.gold.doc} [${row.gold.start}, ${row.gold.end})`,
    "gold chars": row.gold.end - row.gold.start,
    "seams of A": seamText(row.a),
    "seams of B": seamText(row.b),
  }));
}

export interface VerdictFlips {
  /** "overlap 0" and "overlap 150" */
  nameA: string;
  nameB: string;
  configA: SplitterConfig;
  configB: SplitterConfig;
  summary: FlipsSummary | null;
  rows: FlipRow[];
  /** why there is nothing to compare (the choice is the baseline and so is the best) */
  none?: string;
}

/** The flips between overlap 0 and the first curve's choice (its best, when the choice is overlap 0 itself). */
export async function flipsOfVerdict(inputs: RetrievalInputs, result: SweepResult): Promise<VerdictFlips> {
  const curve = result.curves[0];
  const rows = curveRows(result.rows, curve);
  const decision = curve.decision;
  const b = decision.choice !== decision.baseline ? decision.choice : decision.best;
  const configA = rows[decision.baseline].config.splitter;
  const configB = rows[b].config.splitter;
  const nameA = `overlap ${configA.overlap}`;
  const nameB = `overlap ${configB.overlap}`;
  const sides = { nameA, nameB, configA, configB };
  if (b === decision.baseline) {
    const none = `the verdict's choice and the best are both ${nameA}, the baseline: no other overlap to read against it`;
    return { ...sides, summary: null, rows: [], none };
  }
  const flips = await computeFlips(inputs.docs, inputs.queries, configA, configB, { k: curve.k });
  return { ...sides, summary: flips.summary, rows: flips.rows };
}

/** The counts in a sentence: "overlap 150 wins 18 queries and loses 15 against overlap 0 (268 tie; McNemar p = 0.73)". */
export function flipsFinding(flips: VerdictFlips): string {
  if (!flips.summary) return `Nothing to read here: ${flips.none}.`;
  const s = flips.summary;
  const seamWins = flips.rows.filter((row) => row.outcome === "b wins" && row.a.seam?.inside).length;
  const wins = flips.rows.filter((row) => row.outcome === "b wins").length;
  return (
    `**${flips.nameB} wins ${thousands(s.wins)} queries and loses ${thousands(s.losses)} against ${flips.nameA}** ` +
    `(${thousands(s.ties)} give the same outcome; hit rate ${pct(s.hitRateA)} → ${pct(s.hitRateB)}; exact McNemar ` +
    `${pText(s.mcnemarP)}). ` +
    `Of its ${thousands(wins)} wins, ${thousands(seamWins)} are queries whose gold span a seam of ${flips.nameA} cuts: ` +
    `the wins overlap exists for. The others moved through the ranking, not through a seam.`
  );
}

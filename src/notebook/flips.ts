/** The flipping queries (study/flips) as HTML (gold a <mark>, each chunk boundary a marker), text and markdown. */
import type { FlipPiece, FlipRow, FlipSide, FlipsSummary } from "../study/flips";
import { escapeHtml } from "./format";

export interface FlipsHeading {
  title: string;
  /** corpus, queries, retriever, the two configs */
  lines: string[];
  summary: FlipsSummary;
  nameA: string;
  nameB: string;
}

const FLIPS_STYLE = `
.flips{font:14px/1.5 system-ui,sans-serif;max-width:72rem;margin:1rem auto;padding:0 1rem;color:#1d1d1f}
.flips .flip{border:1px solid #d9dce1;border-radius:6px;padding:.6rem .8rem;margin:1rem 0}
.flips .sides{display:grid;grid-template-columns:1fr 1fr;gap:.8rem}
.flips .text{font:12px/1.55 ui-monospace,Menlo,Consolas,monospace;white-space:pre-wrap;word-break:break-word;
background:#f6f7f9;border-radius:4px;padding:.3rem .5rem;margin:.2rem 0;max-height:14rem;overflow:auto}
.flips mark{background:#ffd166;color:#1d1d1f}
.flips .seam{color:#d55e00;font-weight:700}
.flips .hit{color:#1a7f37;font-weight:600}.flips .miss{color:#b3261e;font-weight:600}
.flips .held{outline:2px solid #1a7f37}
`;

function piecesHtml(pieces: readonly FlipPiece[]): string {
  return pieces
    .map((p) => {
      if (p.kind === "seam") {
        const label = `chunk ${p.chunk} ${p.edge === "start" ? "starts" : "ends"} at ${p.at}`;
        return `<span class="seam" title="${label}" aria-label="${label}">${p.edge === "start" ? "⟨" : "⟩"}</span>`;
      }
      const text = escapeHtml(p.text);
      return p.gold ? `<mark>${text}</mark>` : text;
    })
    .join("");
}

function seamLine(side: FlipSide): string {
  const s = side.seam;
  if (s === null) return "no chunk boundary in this document";
  return s.inside
    ? `${s.insideCount} chunk boundar${s.insideCount === 1 ? "y" : "ies"} inside the gold span`
    : `nearest chunk boundary ${s.distance} characters from the gold span (chunk ${s.chunk} ${s.edge}s at ${s.at})`;
}

function sideHtml(name: string, side: FlipSide): string {
  const chunks = side.chunks
    .map(
      (c) =>
        `<div>#${c.rank} ${escapeHtml(c.doc)} [${c.start}, ${c.end})${c.containsGold ? " holds the gold" : ""}` +
        `<div class="text${c.containsGold ? " held" : ""}">${piecesHtml(c.pieces)}</div></div>`,
    )
    .join("");
  return (
    `<div><h4>${escapeHtml(name)}: <span class="${side.hit ? "hit" : "miss"}">${side.hit ? "hit" : "miss"}</span>` +
    `</h4><div>${escapeHtml(seamLine(side))}</div><div class="text">${piecesHtml(side.goldView)}</div>` +
    `<details><summary>top ${side.chunks.length} chunks</summary>${chunks}</details></div>`
  );
}

/** One flipping query: the gold span with each side's seams, each side's top-k. */
export function flipHtml(row: FlipRow, nameA: string, nameB: string): string {
  return (
    `<section class="flip"><h3>${escapeHtml(row.query)} <small>(${escapeHtml(row.outcome)})</small></h3>` +
    `<div>gold: ${escapeHtml(row.gold.doc)} [${row.gold.start}, ${row.gold.end})` +
    `${row.goldSpans > 1 ? ` (1 of ${row.goldSpans} gold spans)` : ""}</div>` +
    `<div class="sides">${sideHtml(`A ${nameA}`, row.a)}${sideHtml(`B ${nameB}`, row.b)}</div></section>`
  );
}

/** A whole HTML page: heading, counts, then B's wins and B's losses. */
export function flipsPageHtml(heading: FlipsHeading, rows: readonly FlipRow[]): string {
  const s = heading.summary;
  const section = (title: string, outcome: FlipRow["outcome"]) => {
    const picked = rows.filter((r) => r.outcome === outcome);
    return (
      `<h2>${escapeHtml(title)} (${picked.length})</h2>` +
      (picked.length === 0 ? "<p>none</p>" : picked.map((r) => flipHtml(r, heading.nameA, heading.nameB)).join(""))
    );
  };
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(heading.title)}</title>` +
    `<style>${FLIPS_STYLE}</style></head><body><main class="flips"><h1>${escapeHtml(heading.title)}</h1>` +
    heading.lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("") +
    `<p>B wins ${s.wins}, B loses ${s.losses}, ties ${s.ties} of ${s.queries} queries. ` +
    `<mark>gold text</mark>; <span class="seam">⟨</span> a chunk starts, <span class="seam">⟩</span> a chunk ends.</p>` +
    section(`Queries B wins (B hits, A misses)`, "b wins") +
    section(`Queries B loses (A hits, B misses)`, "b loses") +
    `</main></body></html>\n`
  );
}

/** Gold in [[ ]], a chunk's start ⟨ and end ⟩, newlines ⏎; past `limit`, cut around the gold. */
export function piecesText(pieces: readonly FlipPiece[], limit = Infinity): string {
  const out = pieces
    .map((p) => (p.kind === "seam" ? (p.edge === "start" ? "⟨" : "⟩") : p.gold ? `[[${p.text}]]` : p.text))
    .join("")
    .replace(/\n/g, "⏎");
  if (out.length <= limit) return out;
  const gold = out.indexOf("[[");
  const from = gold > limit / 4 ? gold - Math.floor(limit / 4) : 0;
  const shown = out.slice(from, from + limit - (from > 0 ? 2 : 1));
  return `${from > 0 ? "…" : ""}${shown}${from + shown.length < out.length ? "…" : ""}`;
}

const bothSides = (row: FlipRow, nameA: string, nameB: string): [string, FlipSide][] => [
  [nameA, row.a],
  [nameB, row.b],
];

export function flipsText(rows: readonly FlipRow[], nameA: string, nameB: string, preview = 160): string {
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(
      "",
      `${row.outcome === "b wins" ? "B WINS " : "B LOSES"}  ${row.query}`,
      `  gold ${row.gold.doc} [${row.gold.start}, ${row.gold.end})${row.goldSpans > 1 ? ` (1 of ${row.goldSpans})` : ""}`,
    );
    for (const [name, side] of bothSides(row, `A ${nameA}`, `B ${nameB}`)) {
      lines.push(`  ${name}: ${side.hit ? "hit" : "miss"}; ${seamLine(side)}`);
      lines.push(`    ${piecesText(side.goldView, 2 * preview)}`);
      for (const c of side.chunks) {
        lines.push(
          `    #${c.rank} ${c.doc} [${c.start}, ${c.end})${c.containsGold ? " (holds the gold)" : ""}: ` +
            piecesText(c.pieces, preview),
        );
      }
    }
  }
  return lines.join("\n");
}

/** The first `count` flips for a page, corpus text in fences longer than any backtick run in it (never markdown). */
export function flipExamplesMarkdown(rows: readonly FlipRow[], nameA: string, nameB: string, count = 3): string {
  const shown = rows.slice(0, count);
  if (shown.length === 0) return "No query flips between the two.";
  const fenced = (text: string) => {
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    return `${fence}text\n${text}\n${fence}`;
  };
  const parts = shown.map((row) => {
    const outcome = row.outcome === "b wins" ? `${nameB} hits, ${nameA} misses` : `${nameA} hits, ${nameB} misses`;
    const sides = bothSides(row, nameA, nameB).map(
      ([name, side]) =>
        `${name} (${side.hit ? "hit" : "miss"}, ${seamLine(side)}):\n\n${fenced(piecesText(side.goldView, 480))}`,
    );
    return [
      `**${outcome}**, for the query:\n\n${fenced(row.query)}`,
      `gold: ${row.gold.doc} [${row.gold.start}, ${row.gold.end})`,
      ...sides,
    ].join("\n\n");
  });
  return `The first ${shown.length} of ${rows.length}:\n\n${parts.join("\n\n---\n\n")}`;
}

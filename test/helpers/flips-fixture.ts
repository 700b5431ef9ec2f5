// Two sides of a flips comparison built by hand (no splitter, no retriever), shared by the study and notebook tests.
import type { Chunk, Doc, Query } from "../../src/core/types";
import type { QueryOutcome } from "../../src/retrieval/evaluate";
import type { FlipsSideInput } from "../../src/study/flips";

// One document, three queries; offsets by hand:    0         1         2         3
//                                                  0123456789012345678901234567890123
export const doc: Doc = { id: "d.md", text: "Intro. <b>Gold & text</b> here. Outro." };
export const gold = { doc: "d.md", start: 7, end: 25 }; // "<b>Gold & text</b>"
export const queries: Query[] = [
  { id: "q1", text: "gold text", gold: [gold] },
  { id: "q2", text: "intro", gold: [{ doc: "d.md", start: 0, end: 6 }] },
  { id: "q3", text: "outro", gold: [{ doc: "d.md", start: 32, end: 38 }] },
];
const chunk = (start: number, end: number): Chunk => ({ doc: "d.md", start, end, text: doc.text.slice(start, end) });
const outcome = (ranked: number[], hit: boolean) => ({ id: "", hit, ranked }) as unknown as QueryOutcome;

// A cuts at 14 (inside the gold) with no overlap; B overlaps, so one chunk [0, 26) holds the gold whole.
export const a: FlipsSideInput = {
  config: { splitter: "window", size: 14, overlap: 0 },
  chunks: [chunk(0, 14), chunk(14, 28), chunk(28, 38)],
  outcomes: [outcome([1], false), outcome([0], true), outcome([2], true)],
};
export const b: FlipsSideInput = {
  config: { splitter: "window", size: 26, overlap: 14 },
  chunks: [chunk(0, 26), chunk(12, 38)],
  outcomes: [outcome([0], true), outcome([0], true), outcome([0], false)],
};

// Types the study floor shares with the floors above it (notebook, report), so a type never drags an import upward.

/** The one recommendation a report leads with ("Do this"); the index page renders it first. */
export interface RecommendationPayload {
  /** decided: shown within the margin of the best; leaning: the best so far, not shown; undecided: cheaper unclear. */
  state: "decided" | "leaning" | "undecided";
  /** What to do, in a few words: "langchain, 1000 chars, overlap 150". */
  action: string;
  /** How sure: margin, queries (source, count, dropped), exposure. */
  sureness: string;
  /** "stable", or what it moves with ("moves: seed 2 says 200"). */
  stability?: string;
  /** The verdict in full sentences. */
  reason: string;
  /** The exact command that would settle a leaning or undecided verdict. */
  settle?: string;
  /** The exported config (`sweep --export`'s content): the report writes it beside the index as chosen.json. */
  exported?: Record<string, unknown>;
}

// Types the study floor shares with the floors above it, so a type never drags an import upward.

/** The one recommendation a report leads with ("Do this"). */
export interface RecommendationPayload {
  state: "decided" | "leaning" | "undecided";
  /** "langchain, 1000 chars, overlap 150" */
  action: string;
  /** margin, queries (source, count, dropped), exposure */
  sureness: string;
  /** "stable", or what it moves with ("moves: seed 2 says 200") */
  stability?: string;
  reason: string;
  /** the exact command that would settle a leaning or undecided verdict */
  settle?: string;
  /** `sweep --export`'s content, written beside the index as chosen.json */
  exported?: Record<string, unknown>;
}

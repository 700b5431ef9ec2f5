// The journal of `queries generate`: one JSON line per reply, so a rerun asks again only what is missing.
import { existsSync, readFileSync } from "node:fs";
import type { Passage } from "./llm-queries";

export interface JournalEntry {
  key: string;
  passage: Passage;
  content: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** Replies already in the journal, by key; a torn last line (a killed run) is ignored. */
export function readJournal(path: string): Map<string, JournalEntry> {
  const entries = new Map<string, JournalEntry>();
  if (!existsSync(path)) return entries;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as JournalEntry;
      if (typeof entry.key === "string" && typeof entry.content === "string") entries.set(entry.key, entry);
    } catch {
      // a line cut short when the previous run was killed: that request is asked again
    }
  }
  return entries;
}

// The shipped notebooks' declared `--budget` work (their metadata, resolved against their parameters cells): the
// planner's tests plan with what the notebooks declare, not with numbers of their own.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readDeclaredWork, type Declared } from "../../src/report/plan/declared-work";
import { projectRoot } from "./corpora";

export const notebooksDir = join(projectRoot, "notebooks");

/** The notebooks' file paths, sorted. */
export const notebookPaths = readdirSync(notebooksDir)
  .filter((name) => name.endsWith(".ipynb"))
  .sort()
  .map((name) => join(notebooksDir, name));

export const declared: Declared = readDeclaredWork(notebookPaths);

/** Costs as a pilot would give them: `splitMs` per full-corpus split, 1 ms per query, 400 queries; 01-02's cells 10 s. */
export const costs = (splitMs: number, loadMs = 20_000) => ({
  splitMs,
  queryMs: 1,
  loadMs,
  queries: 400,
  fixedMs: { "01": 10_000, "02": 10_000 },
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A fresh temp folder holding `files` (path -> content); removed by the returned cleanup. */
export function makeCorpusDir(files: Record<string, string | Buffer>): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-corpus-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

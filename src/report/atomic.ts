// Writes a set of report files so that a failure part-way leaves the previous report untouched: everything is
// written into a staging dir next to the target first; only then is each file renamed into place (rename is
// atomic on one filesystem). Files the previous report made (listed in its manifest) but this one did not are
// removed; any other file in the directory (a screenshot, a note) is left alone.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { randomBytes } from "node:crypto";

export const MANIFEST = ".seamlab-report.json";

export function writeReportAtomically(outDir: string, files: Map<string, string | Buffer>): void {
  const target = resolve(outDir);
  for (const name of files.keys()) {
    if (name !== basename(name) || name.startsWith(".") || name === "")
      throw new Error(`report file name must be a plain file name: "${name}"`);
  }
  const parent = dirname(target);
  mkdirSync(parent, { recursive: true });
  const staging = join(parent, `.${basename(target)}.staging-${process.pid}-${randomBytes(4).toString("hex")}`);
  mkdirSync(staging);
  try {
    for (const [name, content] of files) writeFileSync(join(staging, name), content);
    const names = [...files.keys()].sort();
    writeFileSync(join(staging, MANIFEST), JSON.stringify({ files: names }, null, 1) + "\n");
    if (!existsSync(target)) {
      renameSync(staging, target);
      return;
    }
    const previous = readManifest(target);
    // index.html last: a reader never sees a new index linking to a page not yet in place.
    const order = [...names.filter((n) => n !== "index.html"), ...names.filter((n) => n === "index.html"), MANIFEST];
    for (const name of order) renameSync(join(staging, name), join(target, name));
    for (const name of previous) {
      if (!files.has(name) && name === basename(name) && !name.startsWith("."))
        rmSync(join(target, name), { force: true });
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function readManifest(dir: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, MANIFEST), "utf8"));
    return Array.isArray(parsed.files) ? parsed.files.map(String) : [];
  } catch {
    return [];
  }
}

// `npx tsx scripts/unseen-corpora.ts [OUT]` (default /tmp/seamlab-unseen): writes two corpora the project has
// never used, OUT/book and OUT/faq, from the Apache-2.0 markdown docs in node_modules/@mastra/core/dist/docs
// (scripts/unseen-corpora-build.ts says how each is built; the FAQ's question wording is a template, its answers
// the docs' own text). Nothing is downloaded and no corpus text is committed: the corpora exist only where they are
// written. Deterministic: the same installed package gives byte-identical files. Each folder is replaced only when
// seamlab wrote it (corpus/write-corpus), so pointing OUT at another folder never deletes files it did not write.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { SeamlabError } from "../src/core/errors";
import { checkCorpusOut, writeCorpusFolder } from "../src/corpus/write-corpus";
import { buildBook, buildFaq, type SourcePage } from "./unseen-corpora-build";

const PACKAGE = "@mastra/core";

try {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0]?.startsWith("-"))
    throw new SeamlabError("usage: npx tsx scripts/unseen-corpora.ts [OUT] (default /tmp/seamlab-unseen)");
  const out = resolve(args[0] ?? "/tmp/seamlab-unseen");
  const root = resolve("node_modules", PACKAGE);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string };
  if (pkg.license !== "Apache-2.0")
    throw new SeamlabError(`${PACKAGE}'s licence is now ${pkg.license}, not Apache-2.0: check it before use.`);
  const folder = join(root, "dist", "docs", "references");
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    throw new SeamlabError(`${folder} is missing: run npm ci (the corpora are built from ${PACKAGE}'s docs).`);
  }
  const pages: SourcePage[] = names.map((name) => ({ name, text: readFileSync(join(folder, name), "utf8") }));
  const about = {
    generatedBy: "scripts/unseen-corpora.ts",
    from: `npm:${PACKAGE}@${pkg.version}`,
    licence: pkg.license,
  };
  for (const [name, docs, note] of [
    ["book", buildBook(pages), "one ## title per chapter at its first character, sections moved down one level"],
    ["faq", buildFaq(pages), "question headings from a template (synthetic wording), answers the docs' own text"],
  ] as const) {
    const dir = join(out, name);
    checkCorpusOut(dir, "OUT");
    writeCorpusFolder(dir, docs, { ...about, corpus: name, note });
    const chars = docs.reduce((sum, doc) => sum + doc.text.length, 0);
    const questions = docs.reduce((sum, doc) => sum + (doc.text.match(/^### /gm) ?? []).length, 0);
    console.log(
      `wrote ${dir}: ${docs.length} files, ${chars.toLocaleString("en")} characters, ${questions} ### headings`,
    );
  }
} catch (error) {
  if (!(error instanceof SeamlabError)) throw error;
  console.error(`unseen-corpora: ${error.message}`);
  process.exit(2);
}

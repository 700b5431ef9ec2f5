// Splitters whose names look alike (`langchain`, `langchain-js`; `recursive`) cut a corpus the same way or not: measured
// on the page's own corpus by exact source spans, so a page says whether a row of another would read the same.
import type { Doc } from "../core/types";
import { splitCorpus } from "../splitters/registry";
import { thousands } from "../stats/format";

/** `identical`: chunks of `a` whose span is a chunk of `b` too; `docsDiffering`: documents cut differently. */
export type SplitterAgreement = ReturnType<typeof splitterAgreement>;

/** Splits `docs` with `a` and `b` at one setting and counts the chunks (spans) they share. */
export function splitterAgreement(docs: readonly Doc[], a: string, b: string, size: number, overlap: number) {
  const spans = (splitter: string) => {
    const byDoc = new Map<string, string[]>(docs.map((d) => [d.id, []]));
    for (const c of splitCorpus(docs as Doc[], { splitter, size, overlap }))
      byDoc.get(c.doc)?.push(`${c.start}:${c.end}`);
    return byDoc;
  };
  const [sa, sb] = [spans(a), spans(b)];
  let chunksA = 0;
  let chunksB = 0;
  let identical = 0;
  let docsDiffering = 0;
  for (const doc of docs) {
    const x = sa.get(doc.id) ?? [];
    const y = sb.get(doc.id) ?? [];
    const inB = new Set(y);
    chunksA += x.length;
    chunksB += y.length;
    for (const span of x) if (inB.has(span)) identical++;
    if (x.length !== y.length || x.some((span, i) => span !== y[i])) docsDiffering++;
  }
  return { a, b, size, overlap, chunksA, chunksB, identical, docs: docs.length, docsDiffering };
}

export function agreementText(g: SplitterAgreement): string {
  const setting = `at size ${thousands(g.size)}, overlap ${thousands(g.overlap)}`;
  if (g.docsDiffering === 0) {
    return (
      `\`${g.a}\` and \`${g.b}\` cut this corpus into exactly the same ${thousands(g.chunksA)} chunks ${setting} ` +
      `(every span identical), so their rows would read the same here.`
    );
  }
  return (
    `\`${g.a}\` and \`${g.b}\` differ on this corpus ${setting}: ${thousands(g.identical)} of ` +
    `${thousands(g.chunksA)} chunks of \`${g.a}\` (against ${thousands(g.chunksB)} of \`${g.b}\`) have the same span, ` +
    `and ${thousands(g.docsDiffering)} of ${thousands(g.docs)} documents are cut differently, so their rows are ` +
    `not interchangeable.`
  );
}

/** Notebook 04's note on its splitter: which it is, and whether `langchain` (notebook 03's) cuts the same way. */
export function splitterChoiceFinding(docs: readonly Doc[], splitter: string, size: number, overlap: number): string {
  const choice = `Splitter: \`${splitter}\` at size ${thousands(size)}.`;
  if (splitter === "langchain") return choice;
  return `${choice} ${agreementText(splitterAgreement(docs, splitter, "langchain", size, overlap))}`;
}

/** Each of `splitters` whose name extends another's (`langchain-js`) against that one; "" when none look alike. */
export function lookAlikeFinding(docs: readonly Doc[], splitters: readonly string[], size: number, overlap: number) {
  const pairs: [string, string][] = [];
  for (const s of splitters) {
    const base = splitters.find((b) => b !== s && s.startsWith(`${b}-`));
    if (base) pairs.push([base, s]);
  }
  if (pairs.length === 0) return "";
  return (
    "Rows whose names look alike, compared chunk by chunk on this corpus:\n\n" +
    pairs.map(([a, b]) => `- ${agreementText(splitterAgreement(docs, a, b, size, overlap))}`).join("\n")
  );
}

// A corpus with both markdown headings and labelled questions, so header queries (and ICT) can be checked against
// labelled ones (issue 30 §7). Honest about what it is: a real markdown docs corpus installed from npm (default
// fastify-docs, MIT) with SYNTHETIC facts woven into its prose. Each fact names an invented component ("the Varnoth
// adapter") and one attribute's value ("its retry limit is 7 attempts") in one or two sentences, inserted at a seeded
// sentence boundary of a prose line under a `##`/`###` heading: first, middle or last in its paragraph, never only
// first. Each question asks for that attribute of that component, never with the heading's words, so questions are
// not header queries again. The gold span is the fact's sentence(s), located exactly. No corpus text is committed:
// the docs come from node_modules and the facts from a seed. Facts are wrapped at about 60 characters, as the docs'
// prose is, so a splitter cutting at line feeds can cut a fact.
//
// Limits: the facts are templated, so a question shares the component's invented name and the attribute's words with
// its answer (BM25 finds the chunk easily unless a seam cuts the fact: the curve measures exactly that seam loss); the
// facts do not relate to the section they sit in; their wording repeats across the corpus (8 attribute kinds, 4 fact
// templates). Use it to check whether a proxy recommends the overlap that keeps short answer spans whole, not as a
// stand-in for real users' questions.
import type { Doc, Query } from "../src/core/types";
import { seededRandom } from "../src/core/random";
import { scanMarkdownLines, findHeadings } from "../src/text/headings";
import { sentenceRegions } from "../src/text/sentences";

export interface FactsCorpusOptions {
  /** facts (and questions) to weave in (default 150) */
  count?: number;
  /** default 1 */
  seed?: number;
}

export interface FactRow {
  question: string;
  /** the fact's sentence(s) exactly as inserted (unique in the corpus) */
  answer_span: string;
  doc: string;
}

export interface FactsCorpus {
  docs: Doc[];
  queries: Query[];
  /** the same questions as CSV rows (`question,answer_span,doc`, seamlab's answer-span shape) */
  rows: FactRow[];
  /** facts inserted first, in the middle or last among their line's sentences */
  positions: { first: number; middle: number; last: number };
}

const SYLLABLES = ["var", "noth", "quil", "bro", "zen", "dar", "mek", "tal", "vos", "rin", "pell", "gar", "sif", "lu"];
const KINDS = ["adapter", "plugin", "hook runner", "worker pool", "cache layer", "route group", "decorator", "parser"];
const FIRST = ["Ada", "Bruno", "Chiara", "Dmitri", "Esme", "Farid", "Greta", "Hiro", "Imani", "Jonas"];
const LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Ferreira", "Novak", "Haddad", "Quinn", "Sato", "Berg"];
const WORDS = ["amber", "basalt", "cobalt", "drift", "ember", "fjord", "granite", "harbor", "indigo", "juniper"];

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]) => list[Math.floor(random() * list.length)];
const int = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

const ATTRIBUTES: { name: string; value: (random: Random) => string }[] = [
  { name: "default timeout", value: (r) => `${int(r, 2, 90) * 100} milliseconds` },
  { name: "retry limit", value: (r) => `${int(r, 2, 19)} attempts` },
  { name: "maintainer", value: (r) => `${pick(r, FIRST)} ${pick(r, LAST)}` },
  { name: "release codename", value: (r) => `${pick(r, WORDS)} ${pick(r, WORDS)}` },
  { name: "listening port", value: (r) => String(int(r, 1025, 65000)) },
  { name: "memory budget", value: (r) => `${int(r, 8, 512)} megabytes` },
  { name: "review cycle", value: (r) => `every ${int(r, 2, 12)} weeks` },
  { name: "queue depth", value: (r) => `${int(r, 16, 4096)} entries` },
];

const FACT_TEMPLATES: ((e: string, a: string, v: string) => string)[] = [
  (e, a, v) => `The ${a} of ${e} is ${v}.`,
  (e, a, v) => `For ${e}, the team settled on ${v} as the ${a} after a long review.`,
  (e, a, v) => `${capital(e)} has its own ${a}, separate from the server's. It is set to ${v} and rarely changes.`,
  (e, a, v) => `Operators who run ${e} should know that its ${a} is ${v}.`,
];

const QUESTION_TEMPLATES: ((e: string, a: string) => string)[] = [
  (e, a) => `What is the ${a} of ${e}?`,
  (e, a) => `Which ${a} does ${e} use?`,
  (e, a) => `How is the ${a} of ${e} configured?`,
];

/**
 * The fact wrapped as the docs wrap their prose (a line feed after about 60 characters), so a splitter that cuts at
 * line feeds can cut a fact as it cuts a real answer in wrapped markdown.
 */
function wrapped(fact: string, width = 60): string {
  let line = 0;
  return fact
    .split(" ")
    .map((word, i) => {
      const joint = i === 0 ? "" : line + 1 + word.length > width ? "\n" : " ";
      line = joint === "\n" || i === 0 ? word.length : line + 1 + word.length;
      return joint + word;
    })
    .join("");
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Invented component names, unique: "Varnoth", "Quilbro", ... */
function componentNames(random: Random, count: number): string[] {
  const names = new Set<string>();
  while (names.size < count) {
    const parts = int(random, 2, 3);
    let name = "";
    for (let i = 0; i < parts; i++) name += pick(random, SYLLABLES);
    names.add(capital(name));
  }
  return [...names];
}

interface Slot {
  doc: number;
  /** offset where the fact goes */
  at: number;
  /** "first" | "middle" | "last" among the line's sentences */
  position: "first" | "middle" | "last";
}

const LIST_OR_QUOTE = /^\s*(?:[-*+>]|\d{1,9}[.)])\s/;

/** Prose paragraphs (runs of text lines, markdown wraps them) under the first `##`/`###` heading and after it. */
function paragraphsOf(text: string): { start: number; end: number }[] {
  const lines = scanMarkdownLines(text);
  const firstSection = findHeadings(text, lines).find((h) => h.level === 2 || h.level === 3);
  if (!firstSection) return [];
  const out: { start: number; end: number }[] = [];
  let current: { start: number; end: number } | undefined;
  for (const line of lines) {
    const isText = line.kind === "text" && line.start >= firstSection.lineNext;
    if (!isText || LIST_OR_QUOTE.test(text.slice(line.start, line.end))) {
      if (current) out.push(current);
      current = undefined;
      continue;
    }
    if (current) current.end = line.end;
    else current = { start: line.start, end: line.end };
  }
  if (current) out.push(current);
  return out;
}

/** Sentence boundaries of prose paragraphs of two or more sentences that sit under a `##` or `###` heading. */
function slotsOf(text: string, doc: number): Slot[] {
  const slots: Slot[] = [];
  for (const p of paragraphsOf(text)) {
    const content = text.slice(p.start, p.end);
    if (!/^[A-Z]/.test(content) || !/[.!?]$/.test(content) || content.includes("|")) continue;
    const sentences = sentenceRegions(content.replace(/\n/g, " "));
    if (sentences.length < 2) continue;
    sentences.forEach((r, i) => slots.push({ doc, at: p.start + r.start, position: i === 0 ? "first" : "middle" }));
    slots.push({ doc, at: p.end, position: "last" });
  }
  return slots;
}

/** Weaves `count` synthetic facts into `docs` (seeded); see the module comment. */
export function buildFactsCorpus(docs: readonly Doc[], options: FactsCorpusOptions = {}): FactsCorpus {
  const count = options.count ?? 150;
  const random = seededRandom(options.seed ?? 1);
  const slots = docs.flatMap((doc, d) => slotsOf(doc.text, d));
  if (slots.length < count)
    throw new Error(`buildFactsCorpus: only ${slots.length} prose sentence boundaries under headings; asked ${count}.`);
  // a seeded sample of distinct slots, at most one per line end or sentence start
  const chosen: Slot[] = [];
  const taken = new Set<string>();
  while (chosen.length < count) {
    const slot = slots[Math.floor(random() * slots.length)];
    const key = `${slot.doc}:${slot.at}`;
    if (taken.has(key)) continue;
    taken.add(key);
    chosen.push(slot);
  }
  const names = componentNames(random, count);
  const facts = chosen.map((slot, i) => {
    const entity = `the ${names[i]} ${pick(random, KINDS)}`;
    const attribute = pick(random, ATTRIBUTES);
    const fact = wrapped(pick(random, FACT_TEMPLATES)(entity, attribute.name, attribute.value(random)));
    const question = pick(random, QUESTION_TEMPLATES)(entity, attribute.name);
    return { slot, fact, question };
  });
  const outDocs: Doc[] = [];
  const queries: Query[] = [];
  const rows: FactRow[] = [];
  docs.forEach((doc, d) => {
    const here = facts.filter((f) => f.slot.doc === d).sort((a, b) => a.slot.at - b.slot.at);
    let text = "";
    let from = 0;
    for (const f of here) {
      text += doc.text.slice(from, f.slot.at);
      // at a sentence start: "Fact. Next sentence"; at a line end: "Previous sentence. Fact"
      const lead = f.slot.position === "last" ? " " : "";
      const start = text.length + lead.length;
      text += lead + f.fact + (f.slot.position === "last" ? "" : " ");
      from = f.slot.at;
      queries.push({
        id: `fact${queries.length + 1}`,
        text: f.question,
        doc: doc.id,
        gold: [{ doc: doc.id, start, end: start + f.fact.length }],
      });
      rows.push({ question: f.question, answer_span: f.fact, doc: doc.id });
    }
    text += doc.text.slice(from);
    outDocs.push(here.length === 0 ? doc : { ...doc, text });
  });
  const positions = { first: 0, middle: 0, last: 0 };
  for (const f of facts) positions[f.slot.position]++;
  return { docs: outDocs, queries, rows, positions };
}

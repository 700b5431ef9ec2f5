// A port of LangChain Python 0.3.x `RecursiveCharacterTextSplitter` (character.py, base.py `_merge_splits`) on
// offsets, so every chunk knows its span without searching; where LangChain JS differs (runs of 3+ newlines, see
// `langchainJsCompat`) it follows Python. Deliberate differences, invisible with the default separators: JS
// `trim()`'s whitespace; regex separators split on whole matches (Python also returns capture groups); after an
// empty match, a non-empty one at the same position is not tried. Each level scans its text and measures each piece
// once: O(text length × separators) plus the length function.
import type { Chunk, Doc } from "../core/types";
import { isWhitespaceCode } from "../text/whitespace";

export type KeepSeparator = boolean | "start" | "end";

export interface RecursiveOptions {
  size: number;
  overlap: number;
  separators: string[];
  isSeparatorRegex: boolean;
  keepSeparator: KeepSeparator;
  stripWhitespace: boolean;
  length: (text: string) => number;
  /** True when `length(s) === s.length` (lets the hot path skip slicing). */
  lengthIsChars: boolean;
  /**
   * Reproduce LangChain JS: a self-overlapping literal separator splits at every occurrence ("a\n\n\nb" on "\n\n"
   * gives "a", "\n", "\n\nb"; Python "a", "\n\n\nb"), "" splits UTF-16 units, and a piece still too long after the
   * last non-empty separator is split into characters.
   */
  langchainJsCompat?: boolean;
}

/** A run reuses the same few patterns thousands of times. */
const regexCache = new Map<string, RegExp>();
function compileSeparator(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, "g");
    regexCache.set(pattern, re);
  }
  return re;
}

/** Non-overlapping matches `[start, end)` of `separator` in `text`, left to right, with Python re.split rules. */
function findSeparatorMatches(text: string, separator: string, isRegex: boolean, overlapping: boolean): number[] {
  const bounds: number[] = []; // flat [s0, e0, s1, e1, ...]
  if (!isRegex) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(separator, from);
      if (at < 0) break;
      bounds.push(at, at + separator.length);
      from = overlapping ? at + 1 : at + separator.length;
    }
    return bounds;
  }
  const re = compileSeparator(separator);
  let pos = 0;
  let prevEnd = -1;
  let prevEmpty = false;
  while (pos <= text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) break;
    const s = m.index;
    const e = s + m[0].length;
    if (s === e && prevEmpty && s === prevEnd) {
      // Python: an empty match may not touch the previous empty match; look further on.
      pos = s + 1;
      continue;
    }
    bounds.push(s, e);
    prevEnd = e;
    prevEmpty = s === e;
    pos = e;
  }
  return bounds;
}

/** True when `separator` occurs in `text` (Python `re.search(pattern, text)`). */
function separatorOccurs(text: string, separator: string, isRegex: boolean): boolean {
  if (!isRegex) return text.indexOf(separator) >= 0;
  const re = compileSeparator(separator);
  re.lastIndex = 0;
  return re.exec(text) !== null;
}

/**
 * Pieces of `text[start, end)` (`sub` is that slice) split on `separator`, as absolute flat `[s, e, ...]` pairs,
 * empties dropped (Python `_split_text_with_regex`). An empty separator splits into code points (Python `list(text)`).
 */
function splitPieces(run: SplitRun, sub: string, start: number, end: number, separator: string): number[] {
  const { text, isSeparatorRegex: isRegex, keepSeparator: keep, langchainJsCompat: jsCompat } = run;
  const pieces: number[] = [];
  if (separator === "") {
    for (let i = start; i < end;) {
      const c = text.charCodeAt(i);
      const w = jsCompat
        ? 1
        : c >= 0xd800 && c <= 0xdbff && i + 1 < end && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
          ? 2
          : 1;
      pieces.push(i, i + w);
      i += w;
    }
    return pieces;
  }
  const opens = keep === true || keep === "start";
  if (!isRegex && !jsCompat && opens) {
    // The default, where splitting mostly runs (a call per word on long lines): no list of matches in between.
    let from = start;
    for (let at = sub.indexOf(separator); at >= 0; at = sub.indexOf(separator, at + separator.length)) {
      if (start + at > from) pieces.push(from, start + at);
      from = start + at;
    }
    if (end > from) pieces.push(from, end);
    return pieces;
  }
  // JS keeps separators with a lookahead split: every occurrence start is a boundary, even overlapping ones.
  const m = findSeparatorMatches(sub, separator, isRegex, jsCompat === true && !isRegex && opens);
  let from = 0;
  for (let i = 0; i < m.length; i += 2) {
    // A piece ends where its separator starts (kept by the next piece, or dropped) or, with "end", where it ends.
    const cut = keep === "end" ? m[i + 1] : m[i];
    if (cut > from) pieces.push(start + from, start + cut);
    from = keep === false ? m[i + 1] : cut;
  }
  if (end - start > from) pieces.push(start + from, end);
  return pieces;
}

/** One `splitRecursiveWith` call: its options, the document and the chunks so far (module functions, not closures). */
interface SplitRun extends RecursiveOptions {
  doc: string;
  text: string;
  out: Chunk[];
}

/** Adds the chunk made of pieces[from..to) (piece indices), stripped as LangChain strips it, unless it is empty. */
function emit(run: SplitRun, pieces: number[], from: number, to: number, joiner: string): void {
  const text = run.text;
  let s = pieces[2 * from];
  let e = pieces[2 * (to - 1) + 1];
  let joined = "";
  if (joiner !== "") {
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(text.slice(pieces[2 * i], pieces[2 * i + 1]));
    joined = parts.join(joiner);
  }
  if (run.stripWhitespace) {
    joined = joined.trim();
    while (s < e && isWhitespaceCode(text.charCodeAt(s))) s++;
    while (e > s && isWhitespaceCode(text.charCodeAt(e - 1))) e--;
  }
  const chunkText = joiner === "" ? text.slice(s, e) : joined;
  if (chunkText !== "") run.out.push({ doc: run.doc, start: s, end: e, text: chunkText });
}

/** base.py `_merge_splits` over pieces[from..to) (piece indices). */
function mergePieces(
  run: SplitRun,
  pieces: number[],
  lengths: number[],
  from: number,
  to: number,
  joiner: string,
  joinerLength: number,
): void {
  const { size, overlap } = run;
  let head = from; // current_doc = pieces[head..tail)
  let tail = from;
  let total = 0;
  for (let i = from; i < to; i++) {
    const len = lengths[i];
    if (total + len + (tail > head ? joinerLength : 0) > size) {
      if (tail > head) {
        emit(run, pieces, head, tail, joiner);
        while (total > overlap || (total + len + (tail > head ? joinerLength : 0) > size && total > 0)) {
          total -= lengths[head] + (tail - head > 1 ? joinerLength : 0);
          head++;
        }
      }
    }
    tail = i + 1; // current_doc.append(d): pieces are appended in order, so tail was i
    total += len + (tail - head > 1 ? joinerLength : 0);
  }
  if (tail > head) emit(run, pieces, head, tail, joiner);
}

/** `_split_text` on text[start, end): split on the first separator found, merge short pieces, recurse into long ones. */
function splitLevel(run: SplitRun, start: number, end: number, separators: string[]): void {
  const { text, size } = run;
  let separator = separators[separators.length - 1];
  let rest: string[] = [];
  let found = false;
  const sub = text.slice(start, end);
  for (let i = 0; i < separators.length; i++) {
    const s = separators[i];
    if (s === "") {
      separator = s;
      break;
    }
    if (separatorOccurs(sub, s, run.isSeparatorRegex)) {
      separator = s;
      rest = separators.slice(i + 1);
      found = true;
      break;
    }
  }
  const pieces = splitPieces(run, sub, start, end, separator);
  // LangChain JS tests `if (!newSeparators)`, and an empty array is truthy: it splits into characters.
  if (run.langchainJsCompat && found && rest.length === 0) rest = [""];
  const n = pieces.length / 2;
  const lengths = new Array<number>(n);
  if (run.lengthIsChars) for (let i = 0; i < n; i++) lengths[i] = pieces[2 * i + 1] - pieces[2 * i];
  else for (let i = 0; i < n; i++) lengths[i] = run.length(text.slice(pieces[2 * i], pieces[2 * i + 1]));
  const joiner = run.keepSeparator === false ? separator : "";
  const joinerLength = joiner === "" ? 0 : run.length(joiner);
  let goodFrom = -1;
  for (let i = 0; i < n; i++) {
    if (lengths[i] < size) {
      if (goodFrom < 0) goodFrom = i;
      continue;
    }
    if (goodFrom >= 0) {
      mergePieces(run, pieces, lengths, goodFrom, i, joiner, joinerLength);
      goodFrom = -1;
    }
    if (rest.length === 0) {
      run.out.push({
        doc: run.doc,
        start: pieces[2 * i],
        end: pieces[2 * i + 1],
        text: text.slice(pieces[2 * i], pieces[2 * i + 1]),
      });
    } else {
      splitLevel(run, pieces[2 * i], pieces[2 * i + 1], rest);
    }
  }
  if (goodFrom >= 0) mergePieces(run, pieces, lengths, goodFrom, n, joiner, joinerLength);
}

/**
 * The chunks of `doc` with spans, their texts exactly LangChain Python 0.3.x `split_text`'s: with keepSeparator false
 * pieces re-join with the separator (a regex's source text), so text and span differ where separators collapsed.
 */
export function splitRecursiveWith(doc: Doc, options: RecursiveOptions): Chunk[] {
  // Built field by field: a spread copy of `options` made every split several times slower in V8 (measured).
  const run: SplitRun = {
    size: options.size,
    overlap: options.overlap,
    separators: options.separators,
    isSeparatorRegex: options.isSeparatorRegex,
    keepSeparator: options.keepSeparator,
    stripWhitespace: options.stripWhitespace,
    length: options.length,
    lengthIsChars: options.lengthIsChars,
    langchainJsCompat: options.langchainJsCompat === true,
    doc: doc.id,
    text: doc.text,
    out: [],
  };
  if (doc.text.length > 0) splitLevel(run, 0, doc.text.length, options.separators);
  return run.out;
}

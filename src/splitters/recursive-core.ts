/**
 * A port of LangChain Python 0.3.x `RecursiveCharacterTextSplitter` (langchain_text_splitters/character.py and
 * base.py `_merge_splits`) that works on offsets, so every chunk knows its source span without searching.
 *
 * Semantics kept from Python: separators tried in order (the first one found in the text wins, the rest are used
 * for pieces still too long), `keep_separator` True/"start" (separator opens the next piece), "end" (closes the
 * previous piece) and False (dropped; pieces re-joined with the separator string), regex separators with
 * `re.split` empty-match rules, the merge/pop loop (a piece is kept for overlap only whole), `strip_whitespace`,
 * and a piece is "good" when `length(piece) < size` (strict). Pieces longer than the budget with no separators
 * left are emitted as they are (unstripped), as Python does.
 *
 * Where LangChain JS differs from Python (runs of 3+ newlines, see `langchainJsCompat`), we follow Python. On
 * opentelemetry-docs and tts-handbook at 1000/200 the two agree on every chunk; at 500/100 and 300/0 one
 * opentelemetry-docs file differs (a "\n\n\n" in python/getting-started.md), and with `langchainJsCompat` none.
 * In token units the same runs move later seams: on fastify-docs Guides/Plugins-Guide.md at 200/40 tokens, chunk 17
 * holds 193 tokens here and in LangChain Python (checked against the real package) and 140 in LangChain JS.
 *
 * Deliberate differences from Python, invisible on the default separators with chars:
 * - whitespace stripping uses the JS `trim()` set (like LangChain JS), not Python's `str.isspace` set;
 * - regex separators are JS regexes (flag "g"); a user pattern with its own capture groups is split on whole
 *   matches (Python would also return the groups' text as pieces);
 * - after an empty regex match, a non-empty match at the same position is not tried (Python 3.7+ would).
 *
 * Time: each level scans its text once and each piece's length is computed once, so the work is
 * O(text length x number of separators) plus the length function (linear for chars).
 */
import { isWhitespaceCode } from "../text/whitespace";

export type KeepSeparator = boolean | "start" | "end";

export interface RecursiveOptions {
  size: number;
  overlap: number;
  separators: string[];
  isSeparatorRegex: boolean;
  keepSeparator: KeepSeparator;
  stripWhitespace: boolean;
  /** Length of a piece of text in the size unit. */
  length: (text: string) => number;
  /** True when `length(s) === s.length` (lets the hot path skip slicing). */
  lengthIsChars: boolean;
  /**
   * Reproduce LangChain JS where it differs from Python (off by default): JS keeps a literal separator with a
   * lookahead split, so a self-overlapping separator splits at every occurrence ("a\n\n\nb" on "\n\n" gives
   * "a", "\n", "\n\nb"; Python gives "a", "\n\n\nb"); the empty separator splits UTF-16 units, not code
   * points; and a piece still too long after the last non-empty separator is split into characters.
   */
  langchainJsCompat?: boolean;
}

/** A chunk before it is tied to a document: `[start, end)` into the text and the text LangChain would return. */
export interface SpanText {
  start: number;
  end: number;
  text: string;
}

/** Compile a separator regex once per pattern (a splitter run reuses the same few patterns thousands of times). */
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
function splitPieces(
  text: string,
  sub: string,
  start: number,
  end: number,
  separator: string,
  isRegex: boolean,
  keep: KeepSeparator,
  jsCompat: boolean,
): number[] {
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
  if (!isRegex && !jsCompat && (keep === true || keep === "start")) {
    // The default (a literal separator opening the next piece): pieces straight from the search, with no list of
    // matches in between; splitting runs mostly here, a call per word on long lines.
    let from = start;
    for (let at = sub.indexOf(separator); at >= 0; at = sub.indexOf(separator, at + separator.length)) {
      if (start + at > from) pieces.push(from, start + at);
      from = start + at;
    }
    if (end > from) pieces.push(from, end);
    return pieces;
  }
  // JS keeps separators with a lookahead split: every occurrence start is a boundary, even overlapping ones.
  const overlapping = jsCompat && !isRegex && (keep === true || keep === "start");
  const m = findSeparatorMatches(sub, separator, isRegex, overlapping);
  const push = (s: number, e: number) => {
    if (e > s) pieces.push(start + s, start + e);
  };
  const len = end - start;
  if (keep === true || keep === "start") {
    let from = 0;
    for (let i = 0; i < m.length; i += 2) {
      push(from, m[i]);
      from = m[i];
    }
    push(from, len);
  } else if (keep === "end") {
    let from = 0;
    for (let i = 0; i < m.length; i += 2) {
      push(from, m[i + 1]);
      from = m[i + 1];
    }
    push(from, len);
  } else {
    let from = 0;
    for (let i = 0; i < m.length; i += 2) {
      push(from, m[i]);
      from = m[i + 1];
    }
    push(from, len);
  }
  return pieces;
}

/** One `splitRecursiveSpans` call: the text, its options, and the chunks so far (module functions, not closures). */
interface SplitRun {
  text: string;
  size: number;
  overlap: number;
  isRegex: boolean;
  keep: KeepSeparator;
  strip: boolean;
  length: (text: string) => number;
  lengthIsChars: boolean;
  jsCompat: boolean;
  out: SpanText[];
}

/** Adds the chunk made of pieces[from..to) (piece indices), stripped as LangChain strips it, unless it is empty. */
function emit(run: SplitRun, pieces: number[], from: number, to: number, joiner: string): void {
  const text = run.text;
  let s = pieces[2 * from];
  let e = pieces[2 * (to - 1) + 1];
  let chunkText: string;
  if (joiner === "") {
    if (run.strip) {
      while (s < e && isWhitespaceCode(text.charCodeAt(s))) s++;
      while (e > s && isWhitespaceCode(text.charCodeAt(e - 1))) e--;
    }
    chunkText = text.slice(s, e);
  } else {
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(text.slice(pieces[2 * i], pieces[2 * i + 1]));
    chunkText = parts.join(joiner);
    if (run.strip) {
      chunkText = chunkText.trim();
      while (s < e && isWhitespaceCode(text.charCodeAt(s))) s++;
      while (e > s && isWhitespaceCode(text.charCodeAt(e - 1))) e--;
    }
  }
  if (chunkText !== "") run.out.push({ start: s, end: e, text: chunkText });
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
    if (separatorOccurs(sub, s, run.isRegex)) {
      separator = s;
      rest = separators.slice(i + 1);
      found = true;
      break;
    }
  }
  const pieces = splitPieces(text, sub, start, end, separator, run.isRegex, run.keep, run.jsCompat);
  // LangChain JS tests `if (!newSeparators)`, and an empty array is truthy: it splits into characters.
  if (run.jsCompat && found && rest.length === 0) rest = [""];
  const n = pieces.length / 2;
  const lengths = new Array<number>(n);
  if (run.lengthIsChars) for (let i = 0; i < n; i++) lengths[i] = pieces[2 * i + 1] - pieces[2 * i];
  else for (let i = 0; i < n; i++) lengths[i] = run.length(text.slice(pieces[2 * i], pieces[2 * i + 1]));
  const joiner = run.keep === false ? separator : "";
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
 * Split `text` into chunks with spans, exactly as LangChain Python 0.3.x `split_text` would return their texts.
 *
 * Span meaning: with keepSeparator true/"start"/"end" the pieces of a chunk are contiguous, so
 * `text === source.slice(start, end)` exactly. With keepSeparator false the pieces are re-joined with the
 * separator string: the text equals the slice except where runs of separators collapsed into one (and, for
 * regex separators, Python's join uses the pattern's source text); `[start, end)` still covers the first to the
 * last piece.
 */
export function splitRecursiveSpans(text: string, options: RecursiveOptions): SpanText[] {
  const run: SplitRun = {
    text,
    size: options.size,
    overlap: options.overlap,
    isRegex: options.isSeparatorRegex,
    keep: options.keepSeparator,
    strip: options.stripWhitespace,
    length: options.length,
    lengthIsChars: options.lengthIsChars,
    jsCompat: options.langchainJsCompat === true,
    out: [],
  };
  if (text.length > 0) splitLevel(run, 0, text.length, options.separators);
  return run.out;
}

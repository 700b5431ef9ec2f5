// `--types FILE`: rules before the built-in ones of corpus/doc-types, a glob over document ids or a heading pattern.
import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { SeamlabError } from "../core/errors";
import { readTextFile } from "./text-file";
import { DOC_TYPES, type DocType } from "./types";

export interface TypeOverride {
  glob?: string;
  heading?: string;
  type: DocType;
  origin?: string;
}

const compiledHeadings = new Map<string, RE2JS>();
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000e-\u001f]/;

// RE2JS runs in linear time where JavaScript's backtracking takes hours on `(a+)+$` against 40 a's and a "!"; its
// price, no lookaround or backreferences, is refused when the file is read. About 150 µs to compile: once each.
function headingMatcher(source: string): RE2JS {
  let matcher = compiledHeadings.get(source);
  if (!matcher) {
    matcher = RE2JS.compile(RE2JS.translateRegExp(source), RE2JS.CASE_INSENSITIVE);
    compiledHeadings.set(source, matcher);
  }
  return matcher;
}

export function compileOverrides(overrides: readonly TypeOverride[]) {
  const compiled = overrides.map((o) => ({
    o,
    glob: o.glob !== undefined ? picomatch(o.glob, { dot: true }) : undefined,
    heading: o.heading !== undefined ? headingMatcher(o.heading) : undefined,
  }));
  return (doc: string, heading?: string): TypeOverride | undefined =>
    compiled.find((c) => c.glob?.(doc) || (c.heading && heading !== undefined && c.heading.test(heading)))?.o;
}

export function readTypeOverrides(path: string): TypeOverride[] {
  const role = { what: "--types file", expected: "a text file of rules", fix: 'give one "PATTERN TYPE" rule per line' };
  return parseTypeOverrides(readTextFile(path, role), path);
}

/** One `PATTERN TYPE` per line: a glob over document ids, or `heading: /regex/` / `heading: text`; `#` comments. */
export function parseTypeOverrides(text: string, file: string): TypeOverride[] {
  const rules: TypeOverride[] = [];
  // named by its code, never echoed: its bytes would reach the terminal
  const control = CONTROL.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0);
    const what = code === 0 ? "NUL byte" : `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    throw new SeamlabError(
      `--types file ${file} is not a text file of rules (a ${what} at offset ${control.index}); ` +
        'give a text file with one "PATTERN TYPE" rule per line.',
    );
  }
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "" || line.startsWith("#")) continue;
    const where = `${file}:${i + 1}`;
    const m = /^(.*\S)\s+(\S+)$/.exec(line);
    if (!m) throw new SeamlabError(`${where}: a rule is "PATTERN TYPE" (e.g. "docs/faq/** faq"), got ${quoted(line)}.`);
    const type = m[2] as DocType;
    if (!(DOC_TYPES as readonly string[]).includes(type)) {
      throw new SeamlabError(`${where}: unknown type "${m[2]}"; use one of ${DOC_TYPES.join(", ")}.`);
    }
    const pattern = m[1];
    const heading = /^heading:\s*(.*)$/i.exec(pattern);
    if (heading) {
      const body = heading[1].trim();
      if (body === "") throw new SeamlabError(`${where}: "heading:" needs a pattern, e.g. "heading: /\\?$/ faq".`);
      const regex = /^\/(.*)\/$/.exec(body);
      const source = regex ? regex[1] : body.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      try {
        headingMatcher(source);
      } catch (error) {
        throw new SeamlabError(
          `${where}: invalid heading pattern ${body}: ${(error as Error).message}. Patterns run in linear time ` +
            "(RE2 syntax): no lookahead, lookbehind or backreferences.",
        );
      }
      rules.push({ heading: source, type, origin: where });
    } else {
      rules.push({ glob: pattern, type, origin: where });
    }
  }
  return rules;
}

/** Escaped (no control characters reach a terminal), at most 80 chars. */
function quoted(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

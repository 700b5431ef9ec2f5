// Syntax highlighting of code cells at render time (highlight.js core with TypeScript only).
import hljs from "highlight.js/lib/core";
import typescript from "highlight.js/lib/languages/typescript";

hljs.registerLanguage("typescript", typescript);

/** Highlighted HTML for a code cell; highlight.js escapes the source text itself. */
export function highlightCode(code: string): string {
  return hljs.highlight(code, { language: "typescript", ignoreIllegals: true }).value;
}

// Syntax highlighting of code cells at render time (highlight.js core with only the languages notebooks use).
import hljs from "highlight.js/lib/core";
import typescript from "highlight.js/lib/languages/typescript";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import { escapeHtml } from "../notebook/format";

hljs.registerLanguage("typescript", typescript);
hljs.registerLanguage("javascript", javascript);
hljs.registerLanguage("json", json);

/** Highlighted HTML for a code cell; highlight.js escapes the source text itself. */
export function highlightCode(code: string, language = "typescript"): string {
  if (!hljs.getLanguage(language)) return escapeHtml(code);
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

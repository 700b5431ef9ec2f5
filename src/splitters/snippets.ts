// Ready-to-paste code building, in LangChain JS, LangChain Python and LlamaIndex, the splitter a config measured:
// `equivalent` only when it runs the same algorithm with the same numbers. A splitter with no counterpart gets the
// nearest one, marked NOT EQUIVALENT in the code itself, so a pasted snippet never passes for what was measured.
import type { SplitterConfig } from "./config";
import { describeSplitter, unitOf } from "./registry";

export type SnippetTarget = "langchainJs" | "langchainPython" | "llamaIndex";

export interface SplitterSnippet {
  target: SnippetTarget;
  language: "javascript" | "python";
  /** The code cuts as the measured splitter does (`note` says the known differences). */
  equivalent: boolean;
  note: string;
  code: string;
}

export interface SnippetContext {
  /** One line naming where the choice came from, e.g. "seamlab 0.1.0 sweep on fastify-docs, verdict decided". */
  origin: string;
  /** How the chunks were retrieved when they were measured, e.g. "retrieving the top 5 by bm25 per query". */
  measured?: string;
  /** Pinned versions of the libraries seamlab ran, e.g. { "@langchain/textsplitters": "1.0.2" }. */
  versions?: Record<string, string>;
}

/** A JSON string literal: valid JavaScript, and valid Python for every string JSON.stringify produces. */
const literal = (s: string) => JSON.stringify(s);
const listLiteral = (items: readonly string[]) => `[${items.map(literal).join(", ")}]`;

/** The LangChain class family a seamlab splitter belongs to, when it has an exact LangChain counterpart. */
type LangchainKind =
  | { kind: "recursive"; language?: "markdown" | "js" | "python"; port: "js" | "python" }
  | { kind: "character" }
  | { kind: "token" };

function langchainKindOf(splitter: string): LangchainKind | undefined {
  if (splitter === "langchain") return { kind: "recursive", port: "js" };
  if (splitter === "recursive") return { kind: "recursive", port: "python" };
  if (splitter === "langchain-markdown") return { kind: "recursive", language: "markdown", port: "js" };
  if (splitter === "langchain-js") return { kind: "recursive", language: "js", port: "js" };
  if (splitter === "langchain-python") return { kind: "recursive", language: "python", port: "js" };
  if (splitter === "langchain-character") return { kind: "character" };
  if (splitter === "langchain-token" || splitter === "tokens") return { kind: "token" };
  return undefined;
}

const PY_LANGUAGE: Record<string, string> = { js: "Language.JS", python: "Language.PYTHON" };

function measuredWith(config: SplitterConfig): string {
  const unit = unitOf(config);
  const encoding = unit === "tokens" ? ` ${config.encoding ?? "cl100k_base"}` : "";
  return `seamlab splitter "${config.splitter}" at size ${config.size}, overlap ${config.overlap} ${unit}${encoding}`;
}

function notEquivalentBanner(config: SplitterConfig, comment: string, nearest: string): string {
  return [
    `${comment} NOT EQUIVALENT: ${measuredWith(config)} has no counterpart here`,
    `${comment} (${describeSplitter(config.splitter)}).`,
    `${comment} Below is the nearest standard splitter (${nearest}) at the same numbers: it cuts differently.`,
    `${comment} Measure it first: seamlab compare --a ${config.splitter}:${config.size}:${config.overlap} ` +
      `--b langchain:${config.size}:${config.overlap}`,
  ].join("\n");
}

function header(config: SplitterConfig, context: SnippetContext, comment: string): string {
  const lines = [`${comment} Chunking chosen by ${context.origin}`, `${comment} Numbers from ${measuredWith(config)}.`];
  if (context.measured)
    lines.push(`${comment} Measured ${context.measured}: retrieve the same way to get its hit rate.`);
  return lines.join("\n");
}

function jsSnippet(config: SplitterConfig, context: SnippetContext): SplitterSnippet {
  const kind = langchainKindOf(config.splitter);
  const tokens = unitOf(config) === "tokens";
  const encoding = config.encoding ?? "cl100k_base";
  const version = context.versions?.["@langchain/textsplitters"];
  const ran = `the class seamlab ran${version ? ` (@langchain/textsplitters ${version})` : ""}`;
  const lines = [header(config, context, "//")];
  const options = [`chunkSize: ${config.size}`, `chunkOverlap: ${config.overlap}`];
  if (config.separators && kind?.kind === "recursive") options.push(`separators: ${listLiteral(config.separators)}`);
  const tokenLength = () => {
    lines.push(`import { getEncoding } from "js-tiktoken";`);
    lines.push(`const encoding = getEncoding(${literal(encoding)});`);
    options.push("lengthFunction: (text) => encoding.encode(text).length");
  };
  let equivalent = kind !== undefined;
  let note: string;
  if (kind?.kind === "token") {
    lines.push(`import { TokenTextSplitter } from "@langchain/textsplitters";`);
    lines.push(
      `export const splitter = new TokenTextSplitter({ encodingName: ${literal(encoding)}, ` +
        `chunkSize: ${config.size}, chunkOverlap: ${config.overlap} });`,
    );
    note = `a window of ${config.size} ${encoding} tokens stepping ${config.size - config.overlap}, as measured`;
  } else if (kind?.kind === "character") {
    lines.push(`import { CharacterTextSplitter } from "@langchain/textsplitters";`);
    if (tokens) tokenLength();
    lines.push(`export const splitter = new CharacterTextSplitter({ separator: "\\n\\n", ${options.join(", ")} });`);
    note = ran;
  } else {
    // A recursive splitter, or the nearest one to a splitter without a counterpart.
    if (!kind) lines.push(notEquivalentBanner(config, "//", "RecursiveCharacterTextSplitter"));
    const cls = kind?.language === "markdown" ? "MarkdownTextSplitter" : "RecursiveCharacterTextSplitter";
    lines.push(`import { ${cls} } from "@langchain/textsplitters";`);
    if (tokens) tokenLength();
    const make =
      kind?.language === "js" || kind?.language === "python"
        ? `RecursiveCharacterTextSplitter.fromLanguage(${literal(kind.language)}, { ${options.join(", ")} })`
        : `new ${cls}({ ${options.join(", ")} })`;
    lines.push(`export const splitter = ${make};`);
    note = !kind
      ? `not equivalent: seamlab's "${config.splitter}" has no LangChain JS counterpart; the snippet is the nearest one`
      : kind.port === "js"
        ? `${ran}: the same chunks`
        : "seamlab's recursive splitter ports LangChain Python; LangChain JS cuts the same except around runs of 3 " +
          "or more newlines (and in token units after them)";
    if (kind && config.separatorsAreRegex) {
      equivalent = false;
      note = "not equivalent: LangChain JS escapes separators, and this config's separators are regular expressions";
    }
  }
  lines.push("// const chunks = await splitter.splitText(text);");
  return snippet("langchainJs", equivalent, note, lines);
}

/** The Python LangChain splitter construction for a config with a LangChain counterpart (or the nearest). */
function pythonLangchain(config: SplitterConfig, kind: LangchainKind | undefined): { imports: string[]; make: string } {
  const tokens = unitOf(config) === "tokens";
  const encoding = literal(config.encoding ?? "cl100k_base");
  const numbers = `chunk_size=${config.size}, chunk_overlap=${config.overlap}`;
  if (kind?.kind === "token") {
    return {
      imports: ["from langchain_text_splitters import TokenTextSplitter"],
      make: `TokenTextSplitter(encoding_name=${encoding}, ${numbers})`,
    };
  }
  const cls =
    kind?.kind === "character"
      ? "CharacterTextSplitter"
      : kind?.kind === "recursive" && kind.language === "markdown"
        ? "MarkdownTextSplitter"
        : "RecursiveCharacterTextSplitter";
  const args = [numbers];
  if (kind?.kind === "character") args.unshift(`separator="\\n\\n"`);
  if (config.separators && kind?.kind === "recursive") {
    args.push(`separators=${listLiteral(config.separators)}`);
    if (config.separatorsAreRegex) args.push("is_separator_regex=True");
  }
  const language = kind?.kind === "recursive" && kind.language ? PY_LANGUAGE[kind.language] : undefined;
  if (language) {
    return {
      imports: ["from langchain_text_splitters import Language, RecursiveCharacterTextSplitter"],
      make: tokens
        ? `RecursiveCharacterTextSplitter.from_tiktoken_encoder(encoding_name=${encoding}, ${numbers}, ` +
          `separators=RecursiveCharacterTextSplitter.get_separators_for_language(${language}))`
        : `RecursiveCharacterTextSplitter.from_language(${language}, ${numbers})`,
    };
  }
  return {
    imports: [`from langchain_text_splitters import ${cls}`],
    make: tokens
      ? `${cls}.from_tiktoken_encoder(encoding_name=${encoding}, ${args.join(", ")})`
      : `${cls}(${args.join(", ")})`,
  };
}

function pythonSnippet(config: SplitterConfig, context: SnippetContext): SplitterSnippet {
  const kind = langchainKindOf(config.splitter);
  const { imports, make } = pythonLangchain(config, kind);
  const lines = [
    header(config, context, "#"),
    "# pip install langchain-text-splitters" + (unitOf(config) === "tokens" ? " tiktoken" : ""),
  ];
  if (!kind) lines.push(notEquivalentBanner(config, "#", "RecursiveCharacterTextSplitter"));
  lines.push(...imports, "", `splitter = ${make}`, "# chunks = splitter.split_text(text)");
  const note = !kind
    ? `not equivalent: seamlab's "${config.splitter}" has no LangChain counterpart; the snippet is the nearest one`
    : kind.kind === "recursive" && kind.port === "js"
      ? "LangChain Python, which LangChain JS (what seamlab ran) ports: the same chunks except around runs of 3 or " +
        "more newlines"
      : kind.kind === "recursive"
        ? "LangChain Python, the original seamlab's recursive splitter ports (checked chunk for chunk in its tests)"
        : "the same LangChain class in Python";
  return snippet("langchainPython", kind !== undefined, note, lines);
}

function llamaIndexSnippet(config: SplitterConfig, context: SnippetContext): SplitterSnippet {
  const tokens = unitOf(config) === "tokens";
  const encoding = literal(config.encoding ?? "cl100k_base");
  const lines = [header(config, context, "#")];
  const native = config.splitter === "llamaindex-sentence" || config.splitter === "llamaindex-token";
  if (native) {
    const cls = config.splitter === "llamaindex-sentence" ? "SentenceSplitter" : "TokenTextSplitter";
    lines.push(`# pip install llama-index-core${tokens ? " tiktoken" : ""}`);
    if (tokens) lines.push("import tiktoken");
    lines.push(`from llama_index.core.node_parser import ${cls}`, "");
    // seamlab counts the --unit with the tokenizer it hands LlamaIndex: `list` makes every character one token.
    const tokenizer = tokens ? `tiktoken.get_encoding(${encoding}).encode` : "list";
    if (!tokens) lines.push("# tokenizer=list counts characters (one token per character), as seamlab measured");
    lines.push(`splitter = ${cls}(chunk_size=${config.size}, chunk_overlap=${config.overlap}, tokenizer=${tokenizer})`);
    lines.push("# chunks = splitter.split_text(text)");
    const note = `LlamaIndex Python's ${cls}, the original of the LlamaIndex TS class seamlab ran, counting the same unit`;
    return snippet("llamaIndex", true, note, lines);
  }
  const kind = langchainKindOf(config.splitter);
  const { imports, make } = pythonLangchain(config, kind);
  lines.push(`# pip install llama-index-core langchain-text-splitters${tokens ? " tiktoken" : ""}`);
  if (!kind) lines.push(notEquivalentBanner(config, "#", "LangChain's RecursiveCharacterTextSplitter"));
  else lines.push("# LlamaIndex's own SentenceSplitter cuts differently (sentence-aware, trimmed): wrap LangChain's.");
  lines.push("from llama_index.core.node_parser import LangchainNodeParser", ...imports, "");
  lines.push(`parser = LangchainNodeParser(${make})`, "# nodes = parser.get_nodes_from_documents(documents)");
  const note = kind
    ? "LlamaIndex's LangchainNodeParser around the LangChain Python splitter above: the same chunks as that one"
    : `not equivalent: seamlab's "${config.splitter}" has no LlamaIndex counterpart; the snippet is the nearest one`;
  return snippet("llamaIndex", kind !== undefined, note, lines);
}

function snippet(target: SnippetTarget, equivalent: boolean, note: string, lines: string[]): SplitterSnippet {
  const language = target === "langchainJs" ? "javascript" : "python";
  return { target, language, equivalent, note, code: lines.join("\n") + "\n" };
}

/** The three snippets for a config, in a fixed order (LangChain JS, LangChain Python, LlamaIndex). */
export function splitterSnippets(config: SplitterConfig, context: SnippetContext): SplitterSnippet[] {
  return [jsSnippet(config, context), pythonSnippet(config, context), llamaIndexSnippet(config, context)];
}

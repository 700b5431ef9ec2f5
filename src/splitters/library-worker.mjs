// Worker thread of `library-bridge.ts`, one request at a time in plain JavaScript. `{ library, options, text }` runs
// a library (`library-adapters.mjs`; `adapterModule`, tests, names an extra module whose `adapters` are tried first)
// and replies `{ texts, anchors? }`; `{ texts, fields }` runs LangChain's recursive splitter and replies
// `{ results }`; a failure replies `{ error }`.
import { workerData } from "node:worker_threads";
import { adapters, lengthFunction } from "./library-adapters.mjs";

const { port, flag, adapterModule } = workerData;

let extra = {};
if (adapterModule) extra = (await import(adapterModule)).adapters;

// The libraries warn on oversize chunks through console, which would interleave with the CLI's output (and --json);
// LangChain's recursive splitter keeps its warnings on stderr.
const loud = { warn: console.warn, log: console.log, info: console.info };
const silent = { warn() {}, log() {}, info() {} };

async function runLibrary({ library, text, options }) {
  const adapter = Object.prototype.hasOwnProperty.call(extra, library) ? extra[library] : adapters[library];
  if (!adapter) throw new Error(`no adapter for ${library}`);
  Object.assign(console, silent);
  try {
    return await adapter(text, options);
  } finally {
    Object.assign(console, loud);
  }
}

async function runLangchain({ texts, fields }) {
  let textsplitters;
  try {
    textsplitters = await import("@langchain/textsplitters");
  } catch (error) {
    throw new Error("cannot load @langchain/textsplitters: " + String((error && error.message) || error), {
      cause: error,
    });
  }
  const { RecursiveCharacterTextSplitter, MarkdownTextSplitter } = textsplitters;
  const { language, tokenEncoding, ...options } = fields;
  // js-tiktoken loads only for the first token config (about 0.1 s of CPU a character sweep never needs).
  if (tokenEncoding) options.lengthFunction = await lengthFunction({ unit: "tokens", encoding: tokenEncoding });
  const splitter =
    language === "markdown"
      ? new MarkdownTextSplitter(options)
      : language
        ? RecursiveCharacterTextSplitter.fromLanguage(language, options)
        : new RecursiveCharacterTextSplitter(options);
  const results = [];
  for (const text of texts) results.push(await splitter.splitText(text));
  return { results };
}

port.on("message", async (request) => {
  let reply;
  try {
    reply = await (request.fields ? runLangchain(request) : runLibrary(request));
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

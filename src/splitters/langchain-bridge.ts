/**
 * Runs the real `@langchain/textsplitters` RecursiveCharacterTextSplitter synchronously: LangChain JS is async only,
 * so one unref'ed worker thread keeps it loaded and the caller blocks on `Atomics.wait` for its answer.
 */
import { pathToFileURL } from "node:url";
import { projectRequire } from "../core/project";
import { startSyncWorker, type SyncWorker } from "../core/sync-worker";

/** LangChain's own options, plus what the worker needs to build the splitter (plain data). */
export interface LangchainFields {
  chunkSize: number;
  chunkOverlap: number;
  separators?: string[];
  keepSeparator?: boolean;
  /** "markdown" builds `MarkdownTextSplitter`, others `fromLanguage(language)`. */
  language?: string;
  /** null: characters; otherwise a js-tiktoken encoding name. */
  tokenEncoding: string | null;
}

const workerSource = `
const { workerData } = require("node:worker_threads");
const { port, flag, textsplittersPath, adaptersUrl } = workerData;
let RecursiveCharacterTextSplitter, MarkdownTextSplitter, lengthFunction, loadError;
try {
  ({ RecursiveCharacterTextSplitter, MarkdownTextSplitter } = require(textsplittersPath));
} catch (error) {
  loadError = "cannot load @langchain/textsplitters: " + String((error && error.message) || error);
}
// Memoised per pre-tokenisation piece (LangChain measures the same pieces over and over); js-tiktoken loads only
// for the first token config (about 0.1 s of CPU a character sweep never needs).
async function tokenLength(encoding) {
  if (!lengthFunction) ({ lengthFunction } = await import(adaptersUrl));
  return lengthFunction({ unit: "tokens", encoding });
}
port.on("message", async (request) => {
  let reply;
  try {
    if (loadError) throw new Error(loadError);
    const { language, tokenEncoding, ...options } = request.fields;
    if (tokenEncoding) options.lengthFunction = await tokenLength(tokenEncoding);
    const splitter =
      language === "markdown"
        ? new MarkdownTextSplitter(options)
        : language
          ? RecursiveCharacterTextSplitter.fromLanguage(language, options)
          : new RecursiveCharacterTextSplitter(options);
    const results = [];
    for (const text of request.texts) results.push(await splitter.splitText(text));
    reply = { results };
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let bridge: SyncWorker | undefined;

/** LangChain's `splitText` for each text, computed in the worker while this thread waits. */
export function langchainSplitTextsSync(texts: string[], fields: LangchainFields): string[][] {
  if (!bridge) {
    const req = projectRequire();
    bridge = startSyncWorker(
      "LangChain",
      workerSource,
      {
        textsplittersPath: req.resolve("@langchain/textsplitters"),
        adaptersUrl: pathToFileURL(req.resolve("./src/splitters/library-adapters.mjs")).href,
      },
      true,
    );
  }
  // A deadline, so a worker that died (e.g. failed to load LangChain) is reported instead of hanging forever.
  const answer = bridge.call({ texts, fields }, 600_000);
  if (!answer) throw new Error("LangChain worker did not answer within 10 minutes");
  const reply = answer.reply as { results?: string[][]; error?: string };
  if (reply.error !== undefined) throw new Error(`LangChain RecursiveCharacterTextSplitter failed: ${reply.error}`);
  return reply.results ?? [];
}

/** Stop the worker (tests and benchmarks, to exit promptly; it restarts on next use). */
export function stopLangchainBridge(): void {
  bridge?.stop();
  bridge = undefined;
}

/**
 * Runs the real `@langchain/textsplitters` RecursiveCharacterTextSplitter synchronously.
 *
 * LangChain JS only has an async API (it awaits the length function for every piece), while splitters in
 * seamlab are plain synchronous functions. The bridge keeps one worker thread with LangChain loaded; the
 * caller posts a batch of texts and blocks on `Atomics.wait` until the worker has answered (the same trick
 * `synckit` uses). The worker is unref'ed, so it never keeps the process alive.
 */
import { pathToFileURL } from "node:url";
import { projectRequire } from "../core/project";
import { startSyncWorker, type SyncWorker } from "../core/sync-worker";

/** What the worker needs to build the splitter (plain data: it crosses a thread boundary). */
export interface LangchainFields {
  chunkSize: number;
  chunkOverlap: number;
  separators?: string[];
  keepSeparator?: boolean;
  /** A LangChain language preset: "markdown" builds `MarkdownTextSplitter`, others `fromLanguage(language)`. */
  language?: string;
  /** null: characters (LangChain's default `text.length`); otherwise a js-tiktoken encoding name. */
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
// Token lengths count each pre-tokenisation piece once (library-adapters.mjs lengthFunction, exact): LangChain
// measures every split and every merged candidate, so the same pieces are encoded over and over. js-tiktoken is
// loaded only for the first config that counts tokens: its entry module holds every encoding's ranks, about 0.1 s
// of CPU to load, which a character-length sweep never needs.
async function tokenLength(encoding) {
  if (!lengthFunction) ({ lengthFunction } = await import(adaptersUrl));
  return lengthFunction({ unit: "tokens", encoding });
}
port.on("message", async (request) => {
  let reply;
  try {
    if (loadError) throw new Error(loadError);
    const f = request.fields;
    const options = { chunkSize: f.chunkSize, chunkOverlap: f.chunkOverlap };
    if (f.separators) options.separators = f.separators;
    if (f.keepSeparator !== undefined) options.keepSeparator = f.keepSeparator;
    if (f.tokenEncoding) options.lengthFunction = await tokenLength(f.tokenEncoding);
    const splitter =
      f.language === "markdown"
        ? new MarkdownTextSplitter(options)
        : f.language
          ? RecursiveCharacterTextSplitter.fromLanguage(f.language, options)
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

/** Stop the worker (tests and benchmarks call this to exit promptly; it is restarted on next use). */
export function stopLangchainBridge(): void {
  bridge?.stop();
  bridge = undefined;
}

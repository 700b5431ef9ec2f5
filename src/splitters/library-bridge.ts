// Runs the real chunking libraries (async, some ESM-only) synchronously: one worker thread (`library-worker.mjs`)
// keeps them loaded and this thread blocks on `Atomics.wait` for its reply, with a deadline. A library that hangs on
// an input (a 50 KB word) is terminated and reported naming the document; the next call starts a fresh worker.
import { SeamlabError } from "../core/errors";
import { projectRequire } from "../core/project";
import { startSyncWorker, type SyncWorker } from "../core/sync-worker";
import type { SplitterConfig, Unit } from "./config";

/** What the worker needs to configure a library (plain data: it crosses a thread boundary). */
export type LibraryOptions = Pick<SplitterConfig, "size" | "overlap"> & { unit: Unit; encoding: string };

/** What the library would embed, and (when different) the part of each text taken from the source. */
export interface LibraryTexts {
  texts: string[];
  anchors?: string[];
}

/** Per-document time limit: 60 s, or SEAMLAB_LIBRARY_TIMEOUT_MS. */
function libraryTimeoutMs(): number {
  const raw = process.env.SEAMLAB_LIBRARY_TIMEOUT_MS;
  if (raw === undefined || raw === "") return 60_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new SeamlabError(`SEAMLAB_LIBRARY_TIMEOUT_MS (${JSON.stringify(raw)}) must be a positive integer`);
  }
  return ms;
}

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

let bridge: { worker: SyncWorker; adapterModule: string | undefined } | undefined;

function worker(adapterModule?: string): SyncWorker {
  if (bridge && bridge.adapterModule !== adapterModule) stopLibraryBridge();
  if (!bridge) {
    const workerPath = projectRequire().resolve("./src/splitters/library-worker.mjs");
    bridge = { worker: startSyncWorker("library", workerPath, { adapterModule }), adapterModule };
  }
  return bridge.worker;
}

/** `library`'s chunk texts for `text`; `adapterModule` (tests) is a file URL of a module exporting extra `adapters`. */
export function runLibrarySync(
  library: string,
  docId: string,
  text: string,
  options: LibraryOptions,
  timeoutMs: number = libraryTimeoutMs(),
  adapterModule?: string,
): LibraryTexts {
  const answer = worker(adapterModule).call({ library, options, text }, timeoutMs);
  if (!answer) {
    stopLibraryBridge();
    throw new SeamlabError(
      `${library} did not finish document "${docId}" (${text.length} chars) within ${timeoutMs} ms and was stopped; ` +
        `raise SEAMLAB_LIBRARY_TIMEOUT_MS or leave that document out`,
    );
  }
  const reply = answer.reply as LibraryTexts & { error?: string };
  if (reply.error !== undefined) {
    throw new SeamlabError(`${library} failed on document "${docId}" (${text.length} chars): ${reply.error}`);
  }
  return reply;
}

/** LangChain's `splitText` for each text, computed in the worker while this thread waits. */
export function langchainSplitTextsSync(texts: string[], fields: LangchainFields): string[][] {
  // A deadline, so a worker that died (e.g. failed to load LangChain) is reported instead of hanging forever.
  const answer = (bridge?.worker ?? worker()).call({ texts, fields }, 600_000);
  if (!answer) throw new Error("LangChain worker did not answer within 10 minutes");
  const reply = answer.reply as { results?: string[][]; error?: string };
  if (reply.error !== undefined) throw new Error(`LangChain RecursiveCharacterTextSplitter failed: ${reply.error}`);
  return reply.results ?? [];
}

/** Stop the worker (tests and benchmarks, to exit promptly; it restarts on next use). */
export function stopLibraryBridge(): void {
  bridge?.worker.stop();
  bridge = undefined;
}

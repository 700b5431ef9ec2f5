/**
 * Runs a real chunking library on one document synchronously, with a per-document timeout.
 *
 * The libraries are async (and some ESM-only), while seamlab's splitters are synchronous functions. As in
 * `langchain-bridge.ts`, one worker thread (`library-worker.mjs`) keeps the libraries loaded and this thread
 * blocks on `Atomics.wait` for its reply. The wait has a deadline: a library that hangs or spins on an input (a
 * 50 KB word, a document of only newlines) is terminated and reported with a SeamlabError naming the library and
 * the document; the next call starts a fresh worker. A library that throws is reported the same way.
 */
import { SeamlabError } from "../core/errors";
import { projectRequire } from "../core/project";
import { startSyncWorker, type SyncWorker } from "../core/sync-worker";

/** What the worker needs to configure a library (plain data: it crosses a thread boundary). */
export interface LibraryOptions {
  size: number;
  overlap: number;
  unit: "chars" | "tokens";
  /** js-tiktoken encoding name (token units). */
  encoding: string;
}

/** The library's output for one document: what it would embed, and (when different) the part taken from the source. */
export interface LibraryTexts {
  texts: string[];
  anchors?: string[];
}

/** Per-document time limit; SEAMLAB_LIBRARY_TIMEOUT_MS overrides the default. */
export const defaultLibraryTimeoutMs = 60_000;

export function libraryTimeoutMs(): number {
  const raw = process.env.SEAMLAB_LIBRARY_TIMEOUT_MS;
  if (raw === undefined || raw === "") return defaultLibraryTimeoutMs;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new SeamlabError(`SEAMLAB_LIBRARY_TIMEOUT_MS (${JSON.stringify(raw)}) must be a positive integer`);
  }
  return ms;
}

let bridge: { worker: SyncWorker; adapterModule: string | undefined } | undefined;

/**
 * `library`'s chunk texts for `text` (document `docId`), computed in the worker while this thread waits at most
 * `timeoutMs`. `adapterModule` (tests) is a file URL of an ES module exporting extra `adapters`.
 */
export function runLibrarySync(
  library: string,
  docId: string,
  text: string,
  options: LibraryOptions,
  timeoutMs: number = libraryTimeoutMs(),
  adapterModule?: string,
): LibraryTexts {
  if (bridge && bridge.adapterModule !== adapterModule) stopLibraryBridge();
  if (!bridge) {
    const workerPath = projectRequire().resolve("./src/splitters/library-worker.mjs");
    bridge = { worker: startSyncWorker("library", workerPath, { adapterModule }), adapterModule };
  }
  const answer = bridge.worker.call({ library, options, text }, timeoutMs);
  if (!answer) {
    stopLibraryBridge();
    throw new SeamlabError(
      `${library} did not finish document "${docId}" (${text.length} ` +
        `chars) within ${timeoutMs} ms and was stopped; ` +
        `raise SEAMLAB_LIBRARY_TIMEOUT_MS or leave that document out`,
    );
  }
  const reply = answer.reply as LibraryTexts & { error?: string };
  if (reply.error !== undefined) {
    throw new SeamlabError(`${library} failed on document "${docId}" (${text.length} chars): ${reply.error}`);
  }
  return reply;
}

/** Stop the worker (tests and benchmarks call this to exit promptly; it is restarted on next use). */
export function stopLibraryBridge(): void {
  bridge?.worker.stop();
  bridge = undefined;
}

import type { LibraryOptions, LibraryTexts } from "./library-bridge";

/** One function per library splitter name (see library-adapters.mjs). */
export declare const adapters: Record<string, (text: string, options: LibraryOptions) => Promise<LibraryTexts>>;

/** js-tiktoken's `encode(text, [], [])` for this encoder, each pre-tokenisation piece's tokens memoised. */
export declare function memoisedEncode(encoder: {
  encode(text: string, allowed: string[], disallowed: string[]): number[];
}): (text: string) => number[];

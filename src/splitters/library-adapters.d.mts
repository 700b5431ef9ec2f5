import type { LibraryOptions, LibraryTexts } from "./library-bridge";

/** One function per library splitter name (see library-adapters.mjs). */
export declare const adapters: Record<string, (text: string, options: LibraryOptions) => Promise<LibraryTexts>>;

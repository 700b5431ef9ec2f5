// Types of source-files.mjs (plain JavaScript: see that file).
import type { Hash } from "node:crypto";
export declare function sortedFilesUnder(dir: string, skipTopFolders?: readonly string[]): string[];
export declare function readUnlessGone(path: string): Buffer | undefined;
export declare function hashFiles(hash: Hash, root: string, paths: readonly string[]): void;

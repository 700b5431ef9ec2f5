// Types of kernel-sources-key.mjs (plain JavaScript: see that file).
export declare const BUILD_FORMAT: string;
export declare function kernelSourcesDir(root: string): string;
export declare function notebookSourceFiles(root: string): string[];
export declare function tslabTypeScriptVersion(root: string): string;
export declare function readUnlessGone(path: string): Buffer | undefined;
export declare function kernelSourcesKey(root: string, ts?: { version: string }): string;
export declare function currentKernelSources(root: string): string | undefined;

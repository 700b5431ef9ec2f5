// Types of kernel-sources-key.mjs (plain JavaScript: see that file).
export declare function kernelSourcesDir(root: string): string;
export declare function notebookSourceFiles(root: string): string[];
export declare function kernelSourcesKey(root: string, ts?: { version: string }): string;
export declare function currentKernelSources(root: string): string | undefined;

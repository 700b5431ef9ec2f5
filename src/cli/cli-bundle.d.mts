// Types of cli-bundle.mjs (plain JavaScript: see that file).
export declare function cliBundleKey(root: string, esbuildVersion: string): string;
export declare function cliBundle(root: string): Promise<string | undefined>;

/**
 * The `seamlab` sub-commands. Each command module exports `run(argv: string[]): Promise<number>`
 * (the exit code) and `summary` (one line for --help). Loaded lazily so `--help` stays fast.
 */
export interface CommandModule {
  summary: string;
  run(argv: string[]): Promise<number>;
}

// In the order a user meets them: what the splitter does to the text, then retrieval, sweeps, vectors, the report.
export const commands: Record<string, () => Promise<CommandModule>> = {
  seams: () => import("./seams"),
  pairs: () => import("./pairs"),
  "compare-splitters": () => import("./compare-splitters"),
  libraries: () => import("./libraries"),
  types: () => import("./types"),
  queries: () => import("./queries"),
  retrieve: () => import("./retrieve"),
  compare: () => import("./compare"),
  sweep: () => import("./sweep"),
  check: () => import("./check"),
  proxies: () => import("./proxies"),
  flips: () => import("./flips"),
  embed: () => import("./embed"),
  report: () => import("./report"),
};

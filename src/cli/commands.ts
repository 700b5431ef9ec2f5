/**
 * The `seamlab` sub-commands. Each command module exports `run(argv: string[]): Promise<number>`
 * (the exit code) and `summary` (one line for --help). Loaded lazily so `--help` stays fast.
 */
export interface CommandModule {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export const commands: Record<string, () => Promise<CommandModule>> = {
  retrieve: () => import("./retrieve"), compare: () => import("./compare"),
  report: () => import("./report"),
  seams: () => import("./seams"),
  pairs: () => import("./pairs"),
  "compare-splitters": () => import("./compare-splitters"),
  sweep: () => import("./sweep"),
  embed: () => import("./embed"),
};

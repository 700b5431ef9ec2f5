// `seamlab report` / `npm run report`: execute notebooks, render each to a page plus an index, write atomically.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { SeamlabError } from "../core/errors";
import { writeReportAtomically } from "./atomic";
import { renderIndex } from "./index-page";
import { cellTags, joinSource, readNotebook, serializeNotebook, type Notebook } from "./nbformat";
import { renderNotebook, type RenderedNotebook } from "./render";
import { describeFailure, runNotebook } from "./run";

export interface ReportOptions {
  root: string;
  notebooksDir: string;
  outDir: string;
  /** Injected after each notebook's `parameters` cell (e.g. `{ corpus: "/abs/path" }`). */
  parameters?: Record<string, unknown>;
  /** Keep notebooks whose file name starts with one of these (e.g. ["03"]). */
  only?: string[];
  cellTimeoutMs?: number;
  /** Notebooks executed at once, each in its own kernel (default 1). */
  jobs?: number;
  /** Render the notebooks as saved instead of executing them. */
  noExecute?: boolean;
  log?: (line: string) => void;
}

export interface ReportResult {
  ok: boolean;
  pages: RenderedNotebook[];
  /** One line per failed notebook or render problem, naming notebook and cell. */
  failures: string[];
  outDir: string;
  totalMs: number;
}

export function listNotebooks(dir: string, only?: string[]): string[] {
  if (!existsSync(dir)) throw new SeamlabError(`notebook folder ${dir} does not exist (pass --notebooks DIR).`);
  const all = readdirSync(dir)
    .filter((name) => name.endsWith(".ipynb") && !name.startsWith("."))
    .sort();
  const picked = only && only.length > 0 ? all.filter((name) => only.some((prefix) => name.startsWith(prefix))) : all;
  if (only && only.length > 0 && picked.length === 0) {
    throw new SeamlabError(
      `--only ${only.join(",")} matches no notebook in ${dir} (have: ${all.join(", ") || "none"}).`,
    );
  }
  return picked.map((name) => join(dir, name));
}

/** The corpus a notebook's parameters cell names (`const corpus = "..."`), for the index page. */
export function corpusFromParameters(notebook: Notebook): string | undefined {
  const cell = notebook.cells.find((c) => cellTags(c).includes("parameters"));
  const match =
    cell &&
    /\b(?:const|let|var)\s+corpus\b[^=]*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/.exec(joinSource(cell.source));
  if (!match) return undefined;
  return match[1].slice(1, -1);
}

export function gitCommit(root: string): string {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return "unknown (not a git checkout)";
  }
}

export function packageVersion(root: string): string {
  try {
    return String(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version ?? "unknown");
  } catch {
    return "unknown";
  }
}

export async function buildReport(options: ReportOptions): Promise<ReportResult> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const paths = listNotebooks(options.notebooksDir, options.only);
  const files = new Map<string, string>();
  const pages: RenderedNotebook[] = [];
  const failures: string[] = [];
  const injectedCorpus = typeof options.parameters?.corpus === "string" ? options.parameters.corpus : undefined;
  // Without an injected corpus each notebook reads its own default (prose or markdown): name them all.
  const corpora: string[] = [];
  // Each notebook gets its own kernel; `jobs` of them run at once (results keep the file order).
  const executed = new Array<Notebook>(paths.length);
  const failedRuns = new Array<string | undefined>(paths.length);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const at = next++;
      const name = basename(paths[at], ".ipynb");
      const source = readNotebook(paths[at]);
      if (options.noExecute) {
        executed[at] = source;
        continue;
      }
      log(`running ${name}.ipynb`);
      const result = await runNotebook(source, {
        root: options.root,
        parameters: options.parameters,
        cellTimeoutMs: options.cellTimeoutMs,
        name,
      });
      executed[at] = result.notebook;
      log(
        `  ${name}: ${result.ok ? "ok" : "FAILED"} in ${(result.durationMs / 1000).toFixed(1)} s (kernel start ${(result.kernelStartMs / 1000).toFixed(1)} s)`,
      );
      if (result.failed) failedRuns[at] = describeFailure(paths[at], result.failed);
    }
  };
  const jobs = Math.max(1, Math.min(options.jobs ?? 1, paths.length));
  await Promise.all(Array.from({ length: jobs }, worker));
  for (let at = 0; at < paths.length; at++) {
    const name = basename(paths[at], ".ipynb");
    const own = injectedCorpus ?? corpusFromParameters(executed[at]);
    if (own !== undefined && !corpora.includes(own)) corpora.push(own);
    if (failedRuns[at]) failures.push(failedRuns[at]!);
    const page = await renderNotebook(executed[at], name);
    // Rendering saved outputs: a notebook saved with a failed cell still fails the command.
    if (options.noExecute && page.status === "error") failures.push(page.failure ?? `${name}.ipynb: a cell failed`);
    for (const problem of page.problems) failures.push(`${name}.ipynb: ${problem}`);
    pages.push(page);
    files.set(`${name}.ipynb`, serializeNotebook(executed[at]));
    files.set(`${name}.html`, page.html);
  }
  const totalMs = performance.now() - started;
  files.set(
    "index.html",
    renderIndex(pages, {
      corpus: corpora.length > 0 ? corpora.join(", ") : "(as set in each notebook's parameters cell)",
      generatedAt: new Date().toISOString(),
      version: packageVersion(options.root),
      commit: gitCommit(options.root),
      totalMs,
    }),
  );
  writeReportAtomically(options.outDir, files);
  log(`report written to ${options.outDir}/index.html`);
  return { ok: failures.length === 0, pages, failures, outDir: options.outDir, totalMs };
}

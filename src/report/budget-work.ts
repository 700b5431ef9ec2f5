/**
 * `seamlab report --budget MIN` on a corpus too large for the whole report to fit: how much work each notebook does
 * (fewer overlaps, fewer splitters, sections left out, a notebook left out), and how many notebooks run at once
 * within `--max-memory`. Pure functions over plain numbers measured by the pilots; the CLI measures, these choose.
 *
 * Costs are in full-corpus units: `splitMs` is one split + measure + BM25 index of the whole corpus (an lsa fit is
 * counted as one more), `queryMs` one query over one config, `loadMs` a kernel start plus loading the corpus and
 * its queries. Every notebook pays `loadMs` once; notebooks run `jobs` at a time, never faster than the longest.
 */
import { SeamlabError } from "../core/errors";
import { thousands } from "../stats/format";
import { busyCoresSlowdown, parallelThroughput } from "../experiment/budget";

/** What a notebook does at one level of work: injected parameters, sections not run, and its cost in units. */
export interface WorkLevel {
  /** Parameters injected into this notebook only (e.g. fewer overlaps). */
  parameters: Record<string, unknown>;
  /** Sections (cells tagged `budget:<section>`) left out. */
  skip: string[];
  /** Full-corpus splits (split, measure, index; an lsa fit counts as one). */
  splits: number;
  /** Query passes (one per retrieval config). */
  configs: number;
  /** What ran, in words, for the page ("overlaps 0, 200, 500 of 8; one splitter of 2; no size grid"). */
  ran: string;
  /**
   * Kernel bytes per corpus character this level holds beyond the notebook's least work (`kernelBytesPerChar`):
   * 03's dense sweep embeds every chunk (a vector and a TF-IDF row each), its query-source sweep loads the corpus a
   * second time with its own index; 05's retriever comparison embeds every chunk of one config.
   */
  extraBytesPerChar?: number;
  /**
   * The level reads only a seeded document sample of about this many characters, never the whole corpus (its
   * `documentChars` parameter): its splits count at the sample's share of the corpus, and its kernel holds the sample.
   * Sections that would need the whole corpus (retrieval indexes every document) are in `skip`.
   */
  documentChars?: number;
}

/** Evenly spaced picks of `n` values of `values`, keeping both ends: the shape of a sweep with fewer points. */
export function spacedSubset<T>(values: readonly T[], n: number): T[] {
  if (n >= values.length) return [...values];
  if (n <= 1) return values.slice(0, 1);
  const picked = new Set<number>();
  for (let i = 0; i < n; i++) picked.add(Math.round((i * (values.length - 1)) / (n - 1)));
  return [...picked].sort((a, b) => a - b).map((i) => values[i]);
}

const list = (xs: readonly unknown[]) => xs.join(", ");

/**
 * Notebook 03's defaults (its parameters cell: `test/report/budget-work.test.ts` checks they agree) and its levels,
 * full first: 2 splitters × 5 overlaps, the 3 × 3 size grid, a dense sweep (split + lsa fit per overlap) and an ICT
 * sweep (which loads the corpus again), then one splitter, then fewer overlaps and sections, down to 3 overlaps.
 */
export const notebook03Defaults = {
  splitter: "langchain",
  comparedSplitters: ["window"],
  overlaps: [0, 50, 100, 200, 400],
};
export const notebook04Defaults = { overlaps: [0, 100, 200, 300, 500], depths: [5, 10, 20] };
export const notebook05Defaults = {
  configs: [
    { splitter: "recursive", size: 1000, overlap: 0 },
    { splitter: "recursive", size: 1000, overlap: 200 },
    { splitter: "sentences", size: 1000, overlap: 200 },
    { splitter: "window", size: 1000, overlap: 200 },
  ],
};
export const notebook07Defaults = {
  overlaps: [0, 100, 200, 400],
  splitters: ["langchain", "langchain-markdown", "langchain-js", "window", "structure"],
};

function levels03(): WorkLevel[] {
  const d = {
    ...notebook03Defaults,
    splitters: [notebook03Defaults.splitter, ...notebook03Defaults.comparedSplitters],
  };
  const sections = ["grid", "dense", "sources", "flips", "exposure", "levers"];
  const level = (splitters: string[], overlaps: number[], skip: string[], full = false): WorkLevel => {
    const o = overlaps.length;
    const has = (s: string) => !skip.includes(s);
    const ran = [
      `overlaps ${list(overlaps)}${o < d.overlaps.length ? ` (${o} of ${d.overlaps.length})` : ""}`,
      splitters.length < d.splitters.length ? `splitter ${list(splitters)} only (of ${list(d.splitters)})` : "",
      skip.length > 0 ? `left out: ${skip.map((s) => sectionNames[s] ?? s).join(", ")}` : "",
    ].filter(Boolean);
    return {
      parameters: full ? {} : { comparedSplitters: splitters.slice(1), overlaps },
      skip,
      // The answer's seam exposure splits each overlap once more (then cached); the flips split and run two configs.
      splits:
        splitters.length * o +
        (has("exposure") ? o : 0) +
        (has("flips") ? 2 : 0) +
        (has("levers") ? 3 : 0) +
        (has("grid") ? 9 : 0) +
        (has("dense") ? 2 * o : 0) +
        (has("sources") ? o : 0),
      configs:
        splitters.length * o +
        (has("flips") ? 2 : 0) +
        (has("levers") ? 6 : 0) +
        (has("grid") ? 9 : 0) +
        (has("dense") ? o : 0) +
        (has("sources") ? o : 0),
      ran: ran.join("; "),
      extraBytesPerChar: (has("dense") ? denseBytesPerChar : 0) + (has("sources") ? secondCorpusBytesPerChar : 0),
    };
  };
  const one = d.splitters.slice(0, 1);
  return [
    level(d.splitters, d.overlaps, [], true),
    level(one, d.overlaps, []),
    level(one, d.overlaps, ["sources"]),
    level(one, d.overlaps, ["sources", "dense"]),
    level(one, spacedSubset(d.overlaps, 4), ["sources", "dense"]),
    level(one, spacedSubset(d.overlaps, 4), sections),
    level(one, spacedSubset(d.overlaps, 3), sections),
  ];
}

/** Sections' names on the page. */
export const sectionNames: Readonly<Record<string, string>> = {
  grid: "the size × overlap grid",
  dense: "the dense (lsa) sweep",
  sources: "the sweep by query source",
  flips: "the queries that flip",
  exposure: "the seam exposure of the answer",
  levers: "overlap against neighbours and parents",
  retrievers: "BM25 against dense and hybrid retrieval",
  retrieval:
    "retrieval (it indexes the whole corpus: sampling documents would remove distractors and inflate hit rates)",
  sweep:
    "the sweep of overlap by document type (it indexes the whole corpus: sampling documents would remove " +
    "distractors and inflate hit rates)",
  rerank: "the dense (lsa) reranker beside MMR",
};

function levels04(): WorkLevel[] {
  const d = notebook04Defaults;
  const level = (overlaps: number[], depths: number[], full = false, dense = true): WorkLevel => ({
    parameters: full ? {} : { overlaps, depths, ...(dense ? {} : { denseRerank: false }) },
    skip: dense ? [] : ["rerank"],
    // each overlap: one split, and one lsa fit for the dense reranker; plain + (MMR, dense) per depth
    splits: (dense ? 2 : 1) * overlaps.length,
    configs: overlaps.length * (1 + (dense ? 2 : 1) * depths.length),
    ran:
      `overlaps ${list(overlaps)}${overlaps.length < d.overlaps.length ? ` (${overlaps.length} of ${d.overlaps.length})` : ""}` +
      `; first-stage depths ${list(depths)}${depths.length < d.depths.length ? ` (of ${list(d.depths)})` : ""}` +
      (dense ? "" : `; left out: ${sectionNames.rerank}`),
  });
  return [
    level(d.overlaps, d.depths, true),
    level(spacedSubset(d.overlaps, 3), d.depths),
    level(spacedSubset(d.overlaps, 2), d.depths),
    level(spacedSubset(d.overlaps, 2), d.depths.slice(-1)),
    level(spacedSubset(d.overlaps, 2), d.depths.slice(-1), false, false),
  ];
}

/**
 * Estimated from the arrays, not measured at 1 GB: embedding every chunk of a config holds its vector (128 float32,
 * 512 bytes) and its TF-IDF row (about 100 entries of 12 bytes) per chunk, a chunk per ~650 characters at 1000/500,
 * plus the lsa fit: about 3 bytes per character. A second corpus load (03's query-source sweep reads it again with
 * ICT queries) holds another copy and its own index and document table: about 2.5.
 */
const denseBytesPerChar = 3;
const secondCorpusBytesPerChar = 2.5;

function levels05(): WorkLevel[] {
  // 4 configs; the retrievers section fits lsa on one config and runs dense and hybrid: about 16 splits' time
  // (05 took 137 s and 265 s at 100 MB where a split took about 9-10 s, load average 4-9)
  return [
    {
      parameters: {},
      skip: [],
      splits: 20,
      configs: 6,
      ran: "every config and retriever",
      extraBytesPerChar: denseBytesPerChar,
    },
    { parameters: {}, skip: ["retrievers"], splits: 4, configs: 4, ran: `left out: ${sectionNames.retrievers}` },
    {
      // the paired comparison's two configs only (compare = [1, 0] keeps its meaning)
      parameters: { configs: notebook05Defaults.configs.slice(0, 2), compare: [1, 0] },
      skip: ["retrievers"],
      splits: 2,
      configs: 2,
      ran:
        `configs ${notebook05Defaults.configs
          .slice(0, 2)
          .map((c) => `${c.splitter} ${c.size}/${c.overlap}`)
          .join(" and ")} only (the paired comparison's; of ${notebook05Defaults.configs.length}); ` +
        `left out: ${sectionNames.retrievers}`,
    },
  ];
}

/**
 * Characters of the seeded document sample that notebooks 06 and 07 measure at their least work (chunk sizes, seams,
 * structural damage): 10 M characters hold about 800 documents of the generated scale corpora.
 */
export const sampleLevelChars = 10_000_000;

const sampleChars = (n: number) => `${thousands(n / 1e6, 3)} M characters`;

function levels06(): WorkLevel[] {
  // the semantic arm embeds every sentence: about 40 splits' time (at 100 MB its retrieval cell alone passed the
  // 300 s cell timeout where a split took about 10 s). Retrieval indexes the whole corpus, so the least work keeps
  // the chunking sections on a document sample and leaves retrieval out.
  return [
    { parameters: {}, skip: [], splits: 40, configs: 6, ran: "every chunking" },
    {
      parameters: { documentChars: sampleLevelChars },
      skip: ["retrieval"],
      splits: 30,
      configs: 0,
      documentChars: sampleLevelChars,
      ran:
        `chunk sizes and seams on a seeded sample of about ${sampleChars(sampleLevelChars)} of documents; ` +
        `left out: ${sectionNames.retrieval}`,
    },
  ];
}

/** Configs notebook 07's boundary check runs (study/boundary-check): `structure` and every other splitter, or none. */
function boundaryRuns(splitters: readonly string[]): number {
  const others = new Set(splitters.filter((s) => s !== "structure")).size;
  return others === 0 ? 0 : others + 1;
}

function levels07(): WorkLevel[] {
  const d = notebook07Defaults;
  const level = (splitters: string[], overlaps: number[], full = false): WorkLevel => ({
    parameters: full ? {} : { splitters, overlaps },
    skip: [],
    // structural damage splits and segments the corpus per splitter (about 3 splits' time each: 07 took 246 s at
    // 100 MB where a split took about 10 s); the type sweep splits once per overlap (structure splitter); the
    // boundary check splits and queries `structure` and each other splitter once (none when structure is alone)
    splits: 3 * splitters.length + overlaps.length + boundaryRuns(splitters),
    configs: overlaps.length + boundaryRuns(splitters),
    ran:
      `damage of ${list(splitters)}` +
      `${splitters.length < d.splitters.length ? ` (${splitters.length} of ${d.splitters.length} splitters)` : ""}; ` +
      `overlaps ${list(overlaps)}${overlaps.length < d.overlaps.length ? ` (of ${list(d.overlaps)})` : ""}`,
  });
  return [
    level(d.splitters, d.overlaps, true),
    level(["langchain", "structure"], d.overlaps),
    level(["structure"], spacedSubset(d.overlaps, 3)),
    level(["structure"], spacedSubset(d.overlaps, 2)),
    {
      // the type sweep indexes the whole corpus (and holds it two or three times: the original, the query-stripped
      // copy it indexes, ICT's sentences), so the least work measures damage on a document sample and leaves it out
      parameters: { documentChars: sampleLevelChars },
      skip: ["sweep"],
      splits: 3 * d.splitters.length,
      configs: 0,
      documentChars: sampleLevelChars,
      ran:
        `damage of every splitter on a seeded sample of about ${sampleChars(sampleLevelChars)} of documents ` +
        `(Wilson CIs over its seams: they leave out the spread between documents); left out: ${sectionNames.sweep}`,
    },
  ];
}

/** Work levels of each notebook whose work the budget can reduce, full first. */
export const notebookLevels: Readonly<Record<string, readonly WorkLevel[]>> = {
  "03": levels03(),
  "04": levels04(),
  "05": levels05(),
  "06": levels06(),
  "07": levels07(),
};

/** Which notebook keeps its work longest when the budget is short (first: last to be reduced or left out). */
export const notebookPriority = ["01", "02", "03", "05", "04", "07", "06"];

export interface WorkCosts {
  splitMs: number;
  queryMs: number;
  loadMs: number;
  /** Queries each retrieval config runs (the sample the work is planned at). */
  queries: number;
  /** Cost of the sampled cells of notebooks without levels (01, 02), by prefix; they are never reduced here. */
  fixedMs?: Readonly<Record<string, number>>;
  /** A notebook's own load cost when not `loadMs` (01 and 02 read only their document sample). */
  loadMsOf?: Readonly<Record<string, number>>;
  /**
   * For levels reading a document sample (`WorkLevel.documentChars`): the corpus's characters, and the load of a
   * kernel reading a sample of `share` of them (a pass over the corpus for its outline, then the sample read again).
   * Without them such a level counts as the whole corpus.
   */
  corpusChars?: number;
  sampleLoadMs?: (share: number) => number;
}

export interface NotebookWork {
  prefix: string;
  /** Index into `notebookLevels[prefix]`, or -1: not run at all. Notebooks without levels are 0. */
  level: number;
  estimatedMs: number;
  /** Estimated ms of this notebook's full work (its first level) and of its least. */
  fullMs: number;
  leastMs: number;
}

export interface WorkPlan {
  notebooks: NotebookWork[];
  /** Estimated wall ms of the run (`jobs` at a time, never below the longest notebook). */
  estimatedMs: number;
  fits: boolean;
}

/**
 * What to set aside for notebooks' least work (ms, in priority order) within `leftMs`: each that still fits beside
 * those before it, as the plan admits them (one that does not fit is left out, and reserves nothing).
 */
export function reservedLeastMs(leastMs: readonly number[], leftMs: number): number {
  let reserved = 0;
  for (const ms of leastMs) if (reserved + ms <= leftMs) reserved += ms;
  return reserved;
}

/** Estimated ms of one notebook at a level (-1: not run). */
export function notebookMs(prefix: string, level: number, costs: WorkCosts): number {
  if (level < 0) return 0;
  const levels = notebookLevels[prefix];
  const work = levels?.[level];
  const fixed = costs.fixedMs?.[prefix] ?? 0;
  const load = costs.loadMsOf?.[prefix] ?? costs.loadMs;
  if (!work) return load + fixed;
  if (work.documentChars !== undefined && costs.corpusChars !== undefined && costs.sampleLoadMs) {
    const share = Math.min(1, work.documentChars / Math.max(1, costs.corpusChars));
    return costs.sampleLoadMs(share) + fixed + work.splits * share * costs.splitMs;
  }
  return load + fixed + work.splits * costs.splitMs + work.configs * costs.queries * costs.queryMs;
}

/**
 * Wall estimate of notebooks taking `ms` each alone, `jobs` at a time: their total at `parallelThroughput`, never
 * below the longest, which runs `busyCoresSlowdown` slower for as long as the others keep the other cores busy.
 */
export function wallMs(ms: readonly number[], jobs: number): number {
  const running = ms.filter((m) => m > 0);
  if (running.length === 0) return 0;
  const parallel = Math.max(1, Math.min(jobs, running.length));
  const total = running.reduce((a, b) => a + b, 0);
  if (parallel === 1) return total;
  const longest = Math.max(...running);
  // while the others run (their work over the other parallel - 1 slots), the longest moves at 1 / slowdown
  const beside = Math.min(longest, (total - longest) / (parallel - 1));
  return Math.max(longest + (busyCoresSlowdown - 1) * beside, total / parallelThroughput(parallel));
}

/**
 * The most work that fits `budgetMs`: every notebook starts at its least work (notebooks without levels as they
 * are); while that does not fit, notebooks are left out from the end of `notebookPriority`; then, in priority
 * order, a notebook left out comes back at its least work whenever the result still fits; then, round after round,
 * one running moves one level up whenever the result still fits. Fits = false when even the first notebook at its
 * least does not.
 */
export function chooseNotebookWork(options: {
  budgetMs: number;
  prefixes: readonly string[];
  jobs: number;
  costs: WorkCosts;
  /** Notebooks that may not run (e.g. their kernel alone is over `--max-memory`). */
  excluded?: readonly string[];
  /** The fullest level (lowest index) each notebook may take, e.g. the fullest whose kernel fits `--max-memory`. */
  fullest?: Readonly<Record<string, number>>;
}): WorkPlan {
  const { costs, jobs } = options;
  const prefixes = [...options.prefixes].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const least = (p: string) => (notebookLevels[p] ? notebookLevels[p].length - 1 : 0);
  const excluded = new Set(options.excluded ?? []);
  const level = new Map(prefixes.map((p) => [p, excluded.has(p) ? -1 : least(p)]));
  const total = () =>
    wallMs(
      prefixes.map((p) => notebookMs(p, level.get(p)!, costs)),
      jobs,
    );
  const fits = () => total() <= options.budgetMs;
  for (let i = prefixes.length - 1; i >= 0 && !fits(); i--) {
    if (i === 0 && prefixes.length > 0) break; // the first notebook always runs: the plan then says it does not fit
    level.set(prefixes[i], -1);
  }
  // First every notebook left out comes back at its least work where it fits, in priority order; only then do
  // running notebooks move up, round after round: a notebook run reduced says more than a fuller one beside a
  // notebook not run at all (at 1 GB, 03 at 4 overlaps instead of 3 had left 05 out).
  for (const admitting of [true, false]) {
    for (let changed = true; changed && fits();) {
      changed = false;
      for (const p of prefixes) {
        const now = level.get(p)!;
        if (admitting !== now < 0) continue;
        const up = now < 0 ? least(p) : now - 1;
        if (now === 0 || excluded.has(p) || (now >= 0 && now <= (options.fullest?.[p] ?? 0))) continue;
        level.set(p, up);
        if (fits()) changed = true;
        else level.set(p, now);
      }
    }
  }
  const notebooks = prefixes.map((prefix) => ({
    prefix,
    level: level.get(prefix)!,
    estimatedMs: notebookMs(prefix, level.get(prefix)!, costs),
    fullMs: notebookMs(prefix, 0, costs),
    leastMs: notebookMs(prefix, least(prefix), costs),
  }));
  return { notebooks, estimatedMs: total(), fits: fits() };
}

function rank(prefix: string): number {
  const at = notebookPriority.indexOf(prefix);
  return at < 0 ? notebookPriority.length : at;
}

/** A duration as the budget's lines and pages write it: "8 s" under a minute, else "2.5 min". */
export const minutes = (ms: number) =>
  ms < 60_000 ? `${(ms / 1000).toFixed(0)} s` : `${(ms / 60_000).toFixed(1)} min`;

/** The note a notebook's page carries: what this notebook ran under the budget, and what the full work would take. */
export function workNote(
  work: NotebookWork,
  context: {
    budgetMinutes: number;
    corpusChars: number;
    kernelBytes?: number;
    maxBytes?: number;
    /** The fuller levels were ruled out by `--max-memory`, not by time. */
    memoryLimited?: boolean;
  },
): string {
  const size = `${thousands(context.corpusChars / 1e6)} M characters`;
  const under = `At this corpus size (${size}), under \`--budget ${context.budgetMinutes}\``;
  const gb = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GB`;
  if (work.level < 0 && context.kernelBytes !== undefined && context.maxBytes !== undefined)
    return (
      `${under}, this notebook was **not run**: its kernel would hold about ${gb(context.kernelBytes)}, more than ` +
      `\`--max-memory\` (${gb(context.maxBytes)}) leaves. Raise \`--max-memory\` on a machine that has it.`
    );
  if (work.level < 0)
    return (
      `${under}, this notebook was **not run**: even its least work (about ${minutes(work.leastMs)}; the full ` +
      `version about ${minutes(work.fullMs)}) did not fit what the budget leaves after the notebooks ahead of it. ` +
      `Raise \`--budget\` or run it alone with \`--only ${work.prefix}\`.`
    );
  const levels = notebookLevels[work.prefix];
  if (!levels || work.level === 0) return "";
  const raise = context.memoryLimited
    ? `its fuller work would not fit \`--max-memory\`${context.maxBytes ? ` (${gb(context.maxBytes)})` : ""}; raise it ` +
      `(and \`--budget\`) for the rest`
    : `raise \`--budget\` for the rest`;
  return (
    `${under}, this notebook ran less than its full work: ${levels[work.level].ran} ` +
    `(estimated ${minutes(work.estimatedMs)}; the full version would take about ${minutes(work.fullMs)}). ` +
    `Numbers below are for what ran; ${raise}.`
  );
}

/**
 * A notebook's time limit under `--budget`: twice its planned time, and at least 2 minutes over it. The plan is made
 * in CPU time, so on a machine others are using a notebook can take several times its estimate: one that passes its
 * limit is stopped and left out of the report (its page says so) instead of holding the run past the budget or,
 * with the old per-cell timeout of the whole budget, failing it with nothing published.
 */
export function notebookTimeLimitMs(plannedMs: number): number {
  return Math.round(Math.max(2 * plannedMs, plannedMs + 120_000));
}

/** The page of a notebook stopped at its time limit (`notebookTimeLimitMs`). */
export function overrunNote(context: {
  prefix: string;
  plannedMs: number;
  limitMs: number;
  budgetMinutes: number;
}): string {
  return (
    `Under \`--budget ${context.budgetMinutes}\`, this notebook was **stopped** at its time limit of ` +
    `${minutes(context.limitMs)} (twice its planned ${minutes(context.plannedMs)}, and at least 2 min over it), so ` +
    `none of its results are shown. The plan is made from a pilot timed in CPU time; a notebook takes longer when ` +
    `the machine is busy. The report was published with the other notebooks. Run it alone with ` +
    `\`--only ${context.prefix}\` or raise \`--budget\`.`
  );
}

/** One line for the terminal: every notebook's choice (`overMemory`: those left out for `--max-memory`). */
export function workLine(
  plan: WorkPlan,
  budgetMinutes: number,
  jobs: number,
  overMemory: readonly string[] = [],
): string {
  const parts = plan.notebooks.map((n) => {
    if (n.level < 0 && overMemory.includes(n.prefix)) return `${n.prefix} not run (its kernel is over --max-memory)`;
    if (n.level < 0) return `${n.prefix} not run (full ~${minutes(n.fullMs)})`;
    const levels = notebookLevels[n.prefix];
    if (!levels || n.level === 0) return `${n.prefix} full (~${minutes(n.estimatedMs)})`;
    return `${n.prefix} reduced: ${levels[n.level].ran} (~${minutes(n.estimatedMs)} of ~${minutes(n.fullMs)})`;
  });
  return (
    `budget ${budgetMinutes} min, work per notebook (${jobs} at a time, estimated ${minutes(plan.estimatedMs)}` +
    `${plan.fits ? "" : ", does NOT fit"}): ${parts.join("; ")}.`
  );
}

/** Kernel memory: a tslab kernel with src/ loaded, before any corpus (measured on this machine, about 0.3 GB). */
export const kernelBaseBytes = 300 * 1024 * 1024;

/**
 * A notebook's kernel peak beyond `kernelBaseBytes`: `kernelFixedBytes` plus bytes per character of each copy of the
 * text it holds (the corpus; for 01 and 02 under a document-count sample, the sample). Fitted to lie at or above
 * both sizes measured on the generated scale corpora (2026-12-02, least work, one thread, 400 queries; a plain node
 * process's peak plus 0.34 GB, what the tslab kernel of 03 held more in a 1 GB report), after BM25 postings went to 3
 * bytes and lsa stopped keeping every chunk's term counts past 32 M pairs:
 * - 03 (4 langchain configs): 0.67 GB on 100 MB, 2.80 GB on 1 GB (3.84-3.95 GB before); its kernel in the 1 GB
 *   report (658 queries) 3.14 GB: the corpus (1 GB), the BM25 document-term table (0.5 GB with its anchors), the
 *   largest config's index (0.35 GB) and its chunks.
 * - 04 (overlaps 0 and 500, depth 20, MMR and the dense lsa reranker): 1.01 GB on 100 MB (1.52 before; there the
 *   reranker's fit still keeps its counts), 2.99 GB on 1 GB.
 * - 05: 0.59 GB on the 100 MB corpus (its 4 BM25 configs; the dense and hybrid section left out); not measured at
 *   1 GB.
 * - 07: 1.32 GB on the 100 MB corpus (damage of 2 splitters, 4 overlaps): it holds the corpus twice (the original
 *   for structure damage, the query-stripped copy it indexes).
 * - 06 holds a vector per sentence: 45, from its kernel's 0.70 GB at its least work (a 10 M-character document
 *   sample, read from the 1 GB corpus, 2026-12-02; 20 before, from the 4.9 GB largest process of an older 100 MB
 *   report, had estimated it at 0.48 GB).
 * - 01 and 02: 1.03 GB for 01 on the whole generated 100 MB corpus.
 * A notebook not listed counts as the largest. Below `inThreadChars`, each worker thread of a sweeping notebook's
 * kernel (03-07) holds its own copy of the corpus (03 peaked at 2.67 GB on the 100 MB corpus with 2 worker threads).
 */
export const kernelBytesPerChar: Readonly<Record<string, number>> = {
  "01": 8,
  "02": 8,
  "03": 2.6,
  "04": 2.4,
  "05": 3,
  "06": 45,
  "07": 10,
};

/** What a notebook's kernel holds beyond `kernelBaseBytes` whatever the corpus size (see `kernelBytesPerChar`). */
export const kernelFixedBytes: Readonly<Record<string, number>> = {
  "03": 550e6,
  "04": 950e6,
  "05": 100e6,
};

/** Corpora above this many characters are swept in the kernel's own thread (no worker copies). */
export const inThreadChars = 200_000_000;

/**
 * The estimate for one notebook's kernel at its least work (or at `level`): `kernelBaseBytes` + its fixed bytes +
 * its bytes per character (and the level's extra) × the characters it loads × copies (1, plus one per worker thread
 * below `inThreadChars`).
 */
export function kernelBytes(prefix: string, chars: number, workers = 0, level?: number): number {
  const perChar = kernelBytesPerChar[prefix] ?? Math.max(...Object.values(kernelBytesPerChar));
  const levels = notebookLevels[prefix];
  const work = levels?.[level ?? levels.length - 1];
  // a level reading a document sample holds the sample, not the corpus (and sweeps nothing in worker threads)
  if (work?.documentChars !== undefined)
    return Math.round(
      kernelBaseBytes + (kernelFixedBytes[prefix] ?? 0) + perChar * Math.min(chars, work.documentChars),
    );
  // Only the sweeping notebooks (those with work levels, 03-07) hand the corpus to worker threads: 01 and 02 measure
  // their sample in the kernel's thread (their kernels peaked at 1.30 and 1.16 GB at 1 GB, on a 148 M-character sample
  // whose estimate with a worker copy was 2.50 GB).
  const sweeps = notebookLevels[prefix] !== undefined;
  const copies = chars > inThreadChars || !sweeps ? 1 : 1 + workers;
  const extra = work?.extraBytesPerChar ?? 0;
  return Math.round(kernelBaseBytes + (kernelFixedBytes[prefix] ?? 0) + (perChar + extra) * chars * copies);
}

/**
 * The fullest level (lowest index of `notebookLevels[prefix]`) whose kernel estimate fits `roomBytes`; the least
 * work when none does (whether that fits is `chooseJobs`' question).
 */
export function fullestLevelWithin(prefix: string, chars: number, workers: number, roomBytes: number): number {
  const levels = notebookLevels[prefix];
  if (!levels) return 0;
  for (let level = 0; level < levels.length; level++)
    if (kernelBytes(prefix, chars, workers, level) <= roomBytes) return level;
  return levels.length - 1;
}

export interface JobsChoice {
  jobs: number;
  /** Notebooks whose kernel alone would not fit the limit (not run). */
  overLimit: string[];
  line: string;
}

/**
 * Notebooks at once under `--max-memory`: the most kernels such that the largest that many estimates, with the
 * report process's `reportBytes`, stay under `maxBytes` (at least 1). A notebook whose kernel alone is estimated over
 * that room is named in `overLimit`, to be left out (its page says so): the user's limit holds, there is no
 * tolerance for a kernel "just over" it (one was once admitted at up to 1.25x and the tree passed the limit).
 */
export function chooseJobs(options: {
  requested: number;
  maxBytes: number;
  reportBytes: number;
  /** The estimate of each notebook's kernel, by prefix. */
  kernels: Readonly<Record<string, number>>;
}): JobsChoice {
  const room = options.maxBytes - options.reportBytes;
  const overLimit = Object.keys(options.kernels)
    .filter((prefix) => options.kernels[prefix] > room)
    .sort();
  const sizes = Object.entries(options.kernels)
    .filter(([prefix]) => !overLimit.includes(prefix))
    .map(([, bytes]) => bytes)
    .sort((a, b) => b - a);
  let jobs = 1;
  while (
    jobs < Math.min(options.requested, sizes.length) &&
    sizes.slice(0, jobs + 1).reduce((a, b) => a + b, 0) <= room
  )
    jobs++;
  const gb = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GB`;
  const each = Object.keys(options.kernels)
    .sort()
    .map((prefix) => `${prefix} ${gb(options.kernels[prefix])}`)
    .join(", ");
  const line =
    `max memory ${gb(options.maxBytes)}: ${jobs} notebook${jobs === 1 ? "" : "s"} at a time` +
    `${jobs < options.requested ? ` (of --jobs ${options.requested})` : ""}` +
    `${overLimit.length > 0 ? `; not run, each kernel alone over the ${gb(room)} left: ${overLimit.join(", ")}` : ""} ` +
    `(kernels estimated from the corpus size: ${each}; this process ${gb(options.reportBytes)}).`;
  return { jobs, overLimit, line };
}

/** Reads `--max-memory GB`: a number of gigabytes above 0.5 and at most 1,024. */
export function parseMaxMemory(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const gb = /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!(gb >= 0.5 && gb <= 1024))
    throw new SeamlabError(
      `--max-memory must be a number of gigabytes from 0.5 to 1,024, e.g. --max-memory 4; got "${text}".`,
    );
  return gb * 1024 ** 3;
}

/** `seamlab report`'s per-cell timeout when `--timeout` is not given. */
export const defaultCellTimeoutSeconds = 300;

/**
 * The per-cell timeout: `--timeout` when given; else the default, raised under `--budget` to the time limit of a
 * notebook planned at the whole budget (`notebookTimeLimitMs`), where one cell of a large corpus (notebook 03's sweep
 * at 1 GB: over 5 min) may rightly take most of it: under a budget each notebook's own time limit, from its planned
 * share, is what stops it (and leaves it out of the report, instead of failing the report).
 */
export function cellTimeoutSeconds(given: number | undefined, budgetMinutes: number | undefined): number {
  if (given !== undefined) return given;
  if (budgetMinutes === undefined) return defaultCellTimeoutSeconds;
  return Math.max(defaultCellTimeoutSeconds, Math.ceil(notebookTimeLimitMs(budgetMinutes * 60_000) / 1000));
}

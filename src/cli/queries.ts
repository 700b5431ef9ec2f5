import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { SeamlabError } from "../core/errors";
import { lockOutput } from "../core/output-lock";
import { loadCorpus } from "../corpus/load";
import { checkCorpusOut, checkOutsideCorpus, writeCorpusFolder } from "../corpus/write-corpus";
import { chromaCsv } from "../corpus/write-labelled";
import { estimateCost, estimateGeneration, generateQueries, type GenerateOptions } from "../retrieval/llm-generate";
import { defaultThresholds, systemPrompt, userPrompt } from "../retrieval/llm-queries";
import { waitingLine, type WaitingStatus } from "../retrieval/llm-wait";
import { buildQuerySet } from "../retrieval/query-source";
import { headerOptionsFrom, ictFlags, ictFlagsHelp, ictOptionsFrom } from "./flag-groups";
import { commandArgs, flagOptions, intFlag, LIMITS, numberFlag, optionalIntFlag, stringFlag } from "./flags";
import { refuseToOverwrite, writeFileAtomically } from "./format";
import { thousands } from "../stats/format";

const HELP = `Usage: seamlab queries ict|headers --corpus SPEC --out FILE [--corpus-out DIR]
       seamlab queries generate --corpus SPEC --llm-url URL --llm-model NAME --n N --out FILE

Writes the queries as a labelled file in Chroma's shape (question, references, corpus_id), which every command
reads with --queries FILE, plus FILE.meta.json (how they were made, what was dropped and why).

ict | headers
  --corpus SPEC          the corpus (default: moby-dick for ict, fastify-docs for headers)
  --out FILE             the labelled file (.csv)
  --corpus-out DIR       where to write the text the offsets refer to when it differs from the corpus (ICT
                         removes the query sentences, headers remove heading lines); default FILE without .csv
                         + "-corpus". Use it as --corpus with --queries FILE. Never inside the corpus's own
                         folder; an existing one is replaced only when seamlab wrote it (its manifest proves it)
  --force                replace an existing FILE (and FILE.meta.json); without it an existing file is refused
${ictFlagsHelp()}
  --heading-levels LIST --question-headers-only --gold-sentences N   header query settings (see seamlab retrieve
                         --help; --include-h3 is the same as --heading-levels 2,3, the default)

generate (any OpenAI-compatible chat endpoint: Ollama, vLLM, llama.cpp server, TGI, OpenAI)
  --llm-url URL          base URL (".../v1") or the full .../chat/completions endpoint
  --llm-model NAME       the model name the server expects
  --llm-key-env VAR      environment variable holding the API key (default SEAMLAB_LLM_KEY; unset = no key sent)
  --n N                  questions to ask for, one per sampled passage (default 100)
  --seed N               passage sampling seed (default 1); --passage-chars N (default 1500)
  --temperature X        (default 0); --max-tokens N completion cap per request (default 400)
  --concurrency N        requests in flight at once (default 4)
  --timeout S            seconds per attempt (default 120); --max-retries N (default 4); --max-requests N
  --llm-timeout S        seconds one request may take, every attempt included (default 120); requests in flight
                         are reported every 15 s, and a server that answers none of the first --concurrency
                         requests in time stops the run
  --deadline MIN         minutes the whole run may take (default 60); replies so far stay in the journal
  --price-in X --price-out Y   price per million prompt / completion tokens, for the estimate (default 0)
  --dry-run              print the estimate and stop
  --journal FILE         reply journal for caching and resuming (default FILE.journal.jsonl): an interrupted
                         run continues where it stopped; changing model, prompt or parameters asks again
Kept questions: every excerpt found verbatim in the passage's document (whitespace aside), fewer than
${Math.round(defaultThresholds.copyThreshold * 100)}% of the question's word bigrams copied from its excerpts, \
term-set Jaccard with every earlier kept
question below ${defaultThresholds.duplicateThreshold}. Drops are counted by reason in the sidecar.`;

/** FILE and its sidecar, each whole or not at all (folder created); without `force`, never over a file that appeared. */
function writeSet(out: string, csv: string, meta: Record<string, unknown>, force: boolean): void {
  for (const [path, text] of [
    [out, csv],
    [`${out}.meta.json`, JSON.stringify(meta, null, 2) + "\n"],
  ]) {
    mkdirSync(dirname(resolve(path)), { recursive: true });
    writeFileAtomically(path, text, { force, flag: "--out" });
  }
}

/** `--out FILE`: a .csv file, refused when it (or its sidecar) exists without --force. */
function checkOut(out: string, force: boolean): string {
  if (extname(out).toLowerCase() !== ".csv")
    throw new SeamlabError(`--out must name a .csv file (Chroma's shape), got "${out}".`);
  for (const file of [out, `${out}.meta.json`]) {
    if (existsSync(dirname(resolve(file)))) refuseToOverwrite(file, force, "--out"); // a missing folder is created
  }
  return out;
}

/** Locks every output of this run until it exits, so the CSV, its sidecar and its corpus come from one run. */
function lockOutputs(outputs: { out: string; corpusOut?: string; journal?: string }): void {
  lockOutput(outputs.out, { flag: "--out", command: "queries", kind: "file" });
  if (outputs.corpusOut !== undefined)
    lockOutput(outputs.corpusOut, { flag: "--corpus-out", command: "queries", kind: "folder" });
  if (outputs.journal !== undefined)
    lockOutput(outputs.journal, { flag: "--journal", command: "queries", kind: "file" });
}

/** `--journal FILE` is appended to: an existing file must be a reply journal (its last line may be cut short). */
function checkJournal(path: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) throw new SeamlabError(`--journal ${path} is a folder; give a file name.`);
  const isEntry = (line: string) => {
    try {
      const entry = JSON.parse(line) as { key?: unknown; content?: unknown } | null;
      return typeof entry?.key === "string" && typeof entry.content === "string";
    } catch {
      return false;
    }
  };
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  if (lines.length === 0 || (lines.slice(0, -1).every(isEntry) && (lines.length > 1 || isEntry(lines[0])))) return;
  throw new SeamlabError(
    `--journal ${path} exists and is not a reply journal of seamlab queries generate; it was left alone: ` +
      `choose another --journal file.`,
  );
}

async function writeBuiltSet(kind: "ict" | "headers", values: Record<string, unknown>): Promise<number> {
  const force = values.force === true;
  const out = checkOut(stringFlag(values, "out"), force);
  const corpus = stringFlag(values, "corpus", kind === "ict" ? "moby-dick" : "fastify-docs");
  const corpusOutFlag = stringFlag(values, "corpus-out", out.slice(0, out.length - extname(out).length) + "-corpus");
  const ict = ictOptionsFrom(values);
  const headers = headerOptionsFrom(values);
  lockOutputs({ out, corpusOut: corpusOutFlag });
  const loaded = loadCorpus(corpus);
  checkOutsideCorpus(corpusOutFlag, loaded);
  checkCorpusOut(corpusOutFlag);
  const set = buildQuerySet(kind, loaded.docs, { ict, headers, corpusName: corpus });
  const changed = set.docs.some((d, i) => d.text !== loaded.docs[i].text);
  const corpusOut = changed ? corpusOutFlag : undefined;
  if (corpusOut) {
    for (const kept of writeCorpusFolder(corpusOut, set.docs, { queries: `${out}`, corpus }))
      process.stderr.write(`seamlab: ${kept} was put in the old ${corpusOut} meanwhile; it was kept there.\n`);
  }
  const meta = {
    source: kind,
    corpus,
    description: set.description,
    queries: set.queries.length,
    indexedCorpus: corpusOut ?? corpus,
    provenance: set.provenance,
  };
  writeSet(out, chromaCsv(set.queries, set.docs), meta, force);
  process.stdout.write(
    `wrote ${set.label} to ${out} (+ ${out}.meta.json)` +
      (corpusOut ? `; the text they refer to is in ${corpusOut}/: use --corpus ${corpusOut} --queries ${out}` : "") +
      "\n",
  );
  return 0;
}

function generationNumbers(values: Record<string, unknown>) {
  return {
    n: intFlag(values, "n", 100, { min: 1, max: 100_000, unit: "questions" }),
    seed: intFlag(values, "seed", 1, { min: 0, max: LIMITS.seed }),
    passageChars: intFlag(values, "passage-chars", 1500, { min: 100, max: 100_000, unit: "chars" }),
    temperature: numberFlag(values, "temperature", 0, { min: 0, max: 2 }),
    maxTokens: intFlag(values, "max-tokens", 400, { min: 16, max: 100_000, unit: "tokens" }),
    concurrency: intFlag(values, "concurrency", 4, { min: 1, max: 64, unit: "requests" }),
    timeoutMs: 1000 * numberFlag(values, "timeout", 120, { min: 0, exclusiveMin: true, max: 3600, unit: "seconds" }),
    maxRetries: intFlag(values, "max-retries", 4, { min: 0, max: 20 }),
    requestTimeoutMs:
      1000 * numberFlag(values, "llm-timeout", 120, { min: 0, exclusiveMin: true, max: 86_400, unit: "seconds" }),
    deadlineMs:
      60_000 * numberFlag(values, "deadline", 60, { min: 0, exclusiveMin: true, max: 10_080, unit: "minutes" }),
    maxRequests: optionalIntFlag(values, "max-requests", { min: 1, max: 10_000_000, unit: "requests" }),
    priceIn: numberFlag(values, "price-in", 0, { min: 0 }),
    priceOut: numberFlag(values, "price-out", 0, { min: 0 }),
  };
}

async function generate(values: Record<string, unknown>): Promise<number> {
  const force = values.force === true;
  const out = checkOut(stringFlag(values, "out"), force || values["dry-run"] === true); // a dry run writes nothing
  const corpus = stringFlag(values, "corpus", "moby-dick");
  const numbers = generationNumbers(values);
  const options: GenerateOptions = {
    ...numbers,
    url: stringFlag(values, "llm-url"),
    model: stringFlag(values, "llm-model"),
    keyEnv: values["llm-key-env"] === undefined ? undefined : stringFlag(values, "llm-key-env"),
    journal: stringFlag(values, "journal", `${out}.journal.jsonl`),
  };
  if (values["dry-run"] !== true) lockOutputs({ out, journal: options.journal });
  checkJournal(options.journal);
  const { priceIn, priceOut } = numbers;
  const { docs } = loadCorpus(corpus);
  const estimate = estimateGeneration(docs, options);
  const cost = estimateCost(estimate, priceIn, priceOut);
  process.stderr.write(
    `estimate: ${estimate.requests} requests (${estimate.cached} replies already in ${options.journal}), ` +
      `~${thousands(estimate.promptTokens)} prompt tokens (cl100k count), at most ` +
      `${thousands(estimate.maxCompletionTokens)} completion tokens` +
      (priceIn > 0 || priceOut > 0 ? `; at most ${cost.toFixed(4)} at the given prices` : "") +
      "\n",
  );
  if (values["dry-run"]) return 0;
  const progress = process.stderr.isTTY
    ? (done: number, total: number) => process.stderr.write(`\r${done}/${total} requests`)
    : undefined;
  const onWaiting = (status: WaitingStatus) => process.stderr.write(`${progress ? "\n" : ""}${waitingLine(status)}\n`);
  const result = await generateQueries(docs, { ...options, onProgress: progress, onWaiting });
  if (progress) process.stderr.write("\n");
  if (result.queries.length === 0)
    throw new SeamlabError(
      `no question survived (dropped: ${JSON.stringify(result.dropped)}); nothing written. ` +
        `Examples: ${JSON.stringify(result.examples)}`,
    );
  const { journal, environment: _environment, onProgress: _onProgress, sleep: _sleep, ...params } = options;
  writeSet(
    out,
    chromaCsv(result.queries, docs),
    {
      source: "llm",
      corpus,
      model: options.model,
      endpoint: options.url,
      prompt: { system: systemPrompt, user: userPrompt("<document id>", "<passage text>") },
      params: { ...params, journal, thresholds: defaultThresholds },
      requested: options.n,
      written: result.queries.length,
      dropped: result.dropped,
      dropExamples: result.examples,
      usage: result.usage,
      estimate: { ...estimate, priceIn, priceOut, cost },
    },
    force,
  );
  const dropped = Object.entries(result.dropped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(", ");
  process.stdout.write(
    `wrote ${result.queries.length} of ${options.n} questions to ${out} (+ ${out}.meta.json); ` +
      `dropped: ${dropped || "none"}; tokens used: ${result.usage.promptTokens} prompt, ` +
      `${result.usage.completionTokens} completion\n`,
  );
  return result.dropped.requestFailed > 0 ? 1 : 0;
}

export async function run(argv: string[]): Promise<number> {
  const options = {
    ...flagOptions(["corpus", "out", "corpus-out", "heading-levels", "gold-sentences", "llm-url", "llm-model"]),
    ...flagOptions(["llm-key-env", "n", "seed", "passage-chars", "temperature", "max-tokens", "concurrency"]),
    ...flagOptions(["timeout", "max-retries", "llm-timeout", "deadline", "max-requests", "price-in", "price-out"]),
    ...flagOptions(["journal"], ["force", "include-h3", "question-headers-only", "dry-run"]),
    ...ictFlags,
  };
  const args = await commandArgs(argv, options, HELP, true);
  if (!args) return 0;
  const { values, positionals } = args;
  // every flag is checked before the subcommand does anything
  generationNumbers(values);
  ictOptionsFrom(values);
  headerOptionsFrom(values);
  const [sub, ...extra] = positionals;
  if (sub === undefined) {
    process.stdout.write(HELP + "\n");
    return 1;
  }
  if (extra.length > 0) throw new SeamlabError(`seamlab queries ${sub}: unexpected argument "${extra[0]}".`);
  if (sub === "ict" || sub === "headers") return writeBuiltSet(sub, values);
  if (sub === "generate") return generate(values);
  throw new SeamlabError(`unknown queries subcommand "${sub}": use ict, headers or generate.`);
}

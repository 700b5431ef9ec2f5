import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { SeamlabError } from "../core/errors";
import type { Doc } from "../core/types";
import {
  openAiEndpoint,
  postJsonWithRetries,
  readBearerKey,
  type BearerKey,
  type HttpRetryOptions,
  type RequestBudget,
} from "../embed/http-retry";
import { countTokens } from "../text/tokens";
import {
  defaultThresholds,
  filterReplies,
  requestKey,
  samplePassages,
  systemPrompt,
  userPrompt,
  type GenerationThresholds,
  type Passage,
  type ReplyRecord,
} from "./llm-queries";
import { startHeartbeat, waitText, type WaitingStatus } from "./llm-wait";

/**
 * The HTTP half of `seamlab queries generate`. Replies go to a journal as they arrive, so a rerun asks only what is
 * missing, and are filtered in passage order once all are in, so arrival order does not matter.
 */
export interface GenerateOptions extends HttpRetryOptions {
  url: string; // base URL (".../v1" or the server root) or the full ".../chat/completions" endpoint
  model: string;
  n: number; // questions (one passage each)
  seed?: number;
  passageChars?: number; // default 1500
  temperature?: number;
  maxTokens?: number; // completion tokens per request (default 400)
  concurrency?: number; // default 4
  keyEnv?: string; // the API key's environment variable (default SEAMLAB_LLM_KEY; unset = no auth header)
  environment?: Record<string, string | undefined>;
  journal: string; // the JSONL journal of replies
  thresholds?: GenerationThresholds;
  maxRequests?: number; // retries included (default 4 × n + 20)
  onProgress?: (done: number, total: number) => void;
  requestTimeoutMs?: number; // one request, retries and backoff included (default 120 s)
  deadlineMs?: number; // the whole run (default an hour)
  onWaiting?: (status: WaitingStatus) => void; // every `heartbeatMs` (default 15 s) while requests are in flight
  heartbeatMs?: number;
}

interface JournalEntry {
  key: string;
  passage: Passage;
  content: string;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/** Replies already in the journal (a JSON line each), by key; a torn last line (a killed run) is ignored. */
export function readJournal(path: string): Map<string, JournalEntry> {
  const entries = new Map<string, JournalEntry>();
  if (!existsSync(path)) return entries;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as JournalEntry;
      if (typeof entry.key === "string" && typeof entry.content === "string") entries.set(entry.key, entry);
    } catch {
      // a line cut short when the previous run was killed: that request is asked again
    }
  }
  return entries;
}

/** A server that cannot list its models in 15 s is not healthy. */
const modelsCheckMs = 15_000;

type GenerationEstimate = ReturnType<typeof estimateGeneration>;

/** ".../v1" → ".../v1/chat/completions"; a root → "/v1/chat/completions"; a full endpoint stays. */
export function chatEndpoint(url: string): string {
  return openAiEndpoint(url, "chat/completions", "--llm-url", "http://127.0.0.1:11434/v1");
}

function readKey(options: GenerateOptions): BearerKey {
  return readBearerKey(options.keyEnv, "SEAMLAB_LLM_KEY", "--llm-key-env", options.environment);
}

/** Fails early when the server is unreachable or its `GET /models` lacks the model (no list: a request will tell). */
async function checkEndpoint(options: GenerateOptions): Promise<void> {
  const chat = chatEndpoint(options.url);
  const models = new URL(chat);
  models.pathname = models.pathname.replace(/\/chat\/completions$/, "/models");
  const url = models.toString();
  const { auth, keyEnv } = readKey(options);
  const signal = AbortSignal.timeout(Math.min(options.timeoutMs ?? modelsCheckMs, modelsCheckMs));
  let response: Response;
  try {
    response = await fetch(url, { headers: auth.headers, signal });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = signal.aborted ? "no answer in time" : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new SeamlabError(
      `cannot reach the chat endpoint at ${chat} (${reason}): is the server running and is --llm-url right?`,
    );
  }
  if (response.status === 401 || response.status === 403)
    throw new SeamlabError(`the server at ${url} refused the credentials (HTTP ${response.status}): check $${keyEnv}.`);
  if (!response.ok) return;
  const body: unknown = await response.json().catch(() => undefined);
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return;
  const ids = data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === "string");
  if (ids.length > 0 && !ids.includes(options.model)) {
    const shown = ids.slice(0, 10).join(", ") + (ids.length > 10 ? `, … (${ids.length} in all)` : "");
    throw new SeamlabError(
      `the server at ${chat} does not know model "${options.model}" (--llm-model); it offers: ${shown}.`,
    );
  }
}

function plan(docs: readonly Doc[], options: GenerateOptions) {
  if (!options.model) throw new SeamlabError("--llm-model is required (the model name the server expects).");
  if (!Number.isInteger(options.n) || options.n < 1)
    throw new SeamlabError(`--n must be a whole number >= 1, got ${options.n}.`);
  const chars = options.passageChars ?? 1500;
  const passages = samplePassages(docs, options.n, chars, options.seed ?? 1);
  if (passages.length < options.n)
    throw new SeamlabError(
      `the corpus has only ${passages.length} passages of about ${chars} characters, fewer than --n ${options.n}: ` +
        "lower --n or --passage-chars.",
    );
  const byId = new Map(docs.map((d) => [d.id, d]));
  const { model, temperature = 0, maxTokens = 400 } = options;
  return passages.map((passage) => {
    const text = byId.get(passage.doc)!.text.slice(passage.start, passage.end);
    return {
      key: requestKey({ model, temperature, maxTokens, passage, text }),
      passage,
      messages: [
        { role: "system", content: systemPrompt },
        { role: "user", content: userPrompt(passage.doc, text) },
      ],
    };
  });
}

/** Requests, prompt tokens (cl100k; the server's may differ) and the completion-token cap, before sending anything. */
export function estimateGeneration(docs: readonly Doc[], options: GenerateOptions) {
  const requests = plan(docs, options);
  const journal = readJournal(options.journal);
  const todo = requests.filter((r) => !journal.has(r.key));
  // + 4: chat templates add a few tokens per message
  const promptTokens = todo.reduce((s, r) => s + r.messages.reduce((t, m) => t + countTokens(m.content) + 4, 0), 0);
  return {
    requests: todo.length,
    cached: requests.length - todo.length,
    promptTokens,
    maxCompletionTokens: todo.length * (options.maxTokens ?? 400),
  };
}

export function estimateCost(estimate: GenerationEstimate, pricePerMillionIn: number, pricePerMillionOut: number) {
  return (estimate.promptTokens * pricePerMillionIn + estimate.maxCompletionTokens * pricePerMillionOut) / 1e6;
}

function classify(error: unknown): "requestFailed" | "malformedReply" | "fatal" {
  const message = error instanceof SeamlabError ? error.message : "";
  return /gave up after/.test(message) ? "requestFailed" : /not JSON/.test(message) ? "malformedReply" : "fatal";
}

export async function generateQueries(docs: readonly Doc[], options: GenerateOptions) {
  const started = Date.now();
  const requests = plan(docs, options);
  const estimate = estimateGeneration(docs, options);
  const endpoint = chatEndpoint(options.url);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new SeamlabError(`--concurrency must be a whole number >= 1, got ${concurrency}.`);
  const { auth } = readKey(options);
  const journal = readJournal(options.journal);
  const todo = requests.filter((r) => !journal.has(r.key));
  if (todo.length > 0) await checkEndpoint(options);
  // a killed run can leave a torn last line: start the next entry on a line of its own
  if (existsSync(options.journal) && !readFileSync(options.journal, "utf8").endsWith("\n"))
    appendFileSync(options.journal, "\n");
  const total = options.maxRequests ?? 4 * options.n + 20;
  const budget: RequestBudget = { remaining: total, total };
  const what = `chat endpoint (model ${options.model} at ${endpoint})`;
  const failures = new Map<string, { reason: "requestFailed" | "malformedReply"; message: string }>();
  let answered = 0;
  let settled = 0;
  let fatal: unknown;
  let next = 0;
  const requestLimitMs = options.requestTimeoutMs ?? 120_000;
  const deadline = started + (options.deadlineMs ?? 3_600_000);
  const inFlight = new Map<number, number>(); // request index -> when it was sent (two can share a millisecond)
  let silentTimeouts = 0;
  const { temperature = 0, maxTokens = 400 } = options;
  const stopHeartbeat = startHeartbeat(
    options.heartbeatMs ?? 15_000,
    () => ({
      settled,
      total: todo.length,
      answered,
      inFlight: inFlight.size,
      longestMs: inFlight.size ? Date.now() - Math.min(...inFlight.values()) : 0,
      requestLimitMs,
      deadlineLeftMs: Math.max(0, deadline - Date.now()),
    }),
    options.onWaiting,
  );
  const worker = async () => {
    while (fatal === undefined && next < todo.length && Date.now() < deadline) {
      const at = next++;
      const request = todo[at];
      const sent = Date.now();
      inFlight.set(at, sent);
      const perRequest = sent + requestLimitMs <= deadline;
      try {
        const body = await postJsonWithRetries(
          { model: options.model, messages: request.messages, temperature, max_tokens: maxTokens },
          { what, url: endpoint, ...auth, budget, budgetFlag: "--max-requests" },
          {
            ...options,
            deadline: Math.min(sent + requestLimitMs, deadline),
            deadlineName: perRequest
              ? `the ${waitText(requestLimitMs)} limit per request (--llm-timeout)`
              : "the run's --deadline",
          },
        );
        type Reply = { choices?: { message?: { content?: unknown } }[]; usage?: JournalEntry["usage"] } | null;
        const reply = body as Reply;
        const content = reply?.choices?.[0]?.message?.content;
        const entry: JournalEntry = {
          key: request.key,
          passage: request.passage,
          // no message content: journaled as it came, a (malformed) answer, not a failure
          content: typeof content === "string" ? content : JSON.stringify(body),
          usage: reply?.usage,
        };
        appendFileSync(options.journal, JSON.stringify(entry) + "\n");
        journal.set(request.key, entry);
        answered++;
      } catch (error) {
        const kind = classify(error);
        if (kind === "fatal") {
          fatal ??= error;
        } else {
          failures.set(request.key, { reason: kind, message: (error as Error).message });
          // a server that has answered nothing while `concurrency` requests in a row ran out of time: stop
          if (answered === 0 && /no answer within|passed, at/.test((error as Error).message)) silentTimeouts++;
          if (silentTimeouts >= concurrency)
            fatal ??= new SeamlabError(
              `the chat endpoint at ${endpoint} answered none of ${silentTimeouts} requests, each given ` +
                `${waitText(requestLimitMs)} (--llm-timeout): is the model loaded and the server ` +
                "healthy? Raise --llm-timeout for a slow model.",
            );
        }
      }
      inFlight.delete(at);
      settled++;
      options.onProgress?.(settled, todo.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, todo.length) }, worker));
  } finally {
    stopHeartbeat();
  }
  if (fatal === undefined && settled < todo.length)
    fatal = new SeamlabError(
      `--deadline (${waitText(deadline - started)}) passed with ${settled} of ${todo.length} ` +
        `requests settled (${answered} answered): raise --deadline, or lower --n.`,
    );
  if (fatal instanceof SeamlabError) {
    const unknownModel = /HTTP (400|404)/.test(fatal.message) && /model/i.test(fatal.message);
    const hint = unknownModel ? `The server does not seem to know model "${options.model}" (--llm-model). ` : "";
    throw new SeamlabError(
      `${fatal.message}\n${hint}${answered} replies so far are kept in ${options.journal}; a rerun continues from there.`,
    );
  }
  if (fatal !== undefined) throw fatal;
  const records = requests.map(({ key, passage }): ReplyRecord => {
    const entry = journal.get(key);
    if (entry) return { passage, content: entry.content };
    const failure = failures.get(key);
    // a body that was not JSON at all is a malformed reply: counted as one
    if (failure?.reason === "malformedReply") return { passage, malformed: failure.message };
    return { passage, failure: failure?.message };
  });
  // as the server reported them, over every reply used
  const used = requests.flatMap((request) => journal.get(request.key)?.usage ?? []);
  const promptTokens = used.reduce((sum, usage) => sum + (usage.prompt_tokens ?? 0), 0);
  const completionTokens = used.reduce((sum, usage) => sum + (usage.completion_tokens ?? 0), 0);
  const filtered = filterReplies(records, docs, options.thresholds ?? defaultThresholds);
  return {
    ...filtered,
    passages: requests.map((r) => r.passage),
    estimate,
    usage: { requests: answered, cachedReplies: estimate.cached, promptTokens, completionTokens },
  };
}

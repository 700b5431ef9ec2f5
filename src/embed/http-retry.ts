import { SeamlabError } from "../core/errors";

/**
 * POSTs JSON with the retry discipline both HTTP clients (embeddings, rerank) share: retries with exponential
 * backoff on 429 (honouring Retry-After) and 5xx, a per-request timeout (AbortController), a request budget
 * shared by every call of one client, and a SeamlabError on auth failures and other 4xx. The API key is
 * never put in an error message: messages name the environment variable instead.
 */
export interface HttpRetryOptions {
  /** Attempts after the first for one request (default 4). */
  maxRetries?: number;
  /** Per-attempt timeout in ms (default 60000). */
  timeoutMs?: number;
  /** First backoff delay in ms; doubles per retry (default 500), capped at `maxBackoffMs` (default 30000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Longest Retry-After we agree to wait, in ms (default 120000); longer asks fail with a clear error. */
  maxRetryAfterMs?: number;
  /** Injectable for tests, so Retry-After is checked without real waiting. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A time (`Date.now()` ms) by which the request must be done, retries and backoff included: the attempt in flight
   * is cut then and no other starts. `deadlineName` says what set it, for the message ("the 120 s limit per request
   * (--llm-timeout)").
   */
  deadline?: number;
  deadlineName?: string;
}

export interface RequestBudget {
  /** Requests left; every attempt (retries included) spends one. */
  remaining: number;
  readonly total: number;
}

export interface PostJsonContext {
  /** Who is asking, for messages: "openai-compatible embedder (model x at http://host/v1/embeddings)". */
  what: string;
  url: string;
  headers: Record<string, string>;
  /** How the key was provided, for the 401/403 message: "the key in $SEAMLAB_EMBED_KEY". */
  keySource: string;
  /** Removed from any text that could reach a message (server bodies that echo headers). */
  secret?: string;
  budget: RequestBudget;
  /** The option that raises the budget, for the error message. */
  budgetFlag: string;
}

/** `url` parsed; a SeamlabError naming `flag` (with an example) when it is not an http or https URL. */
export function parseHttpUrl(url: string, flag: string, example: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SeamlabError(`${flag} must be an http(s) URL such as ${example}, got "${url}".`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new SeamlabError(`${flag} must use http or https, got "${url}".`);
  }
  return parsed;
}

/**
 * An OpenAI-style endpoint from what a user types: ".../v1" -> ".../v1/<route>"; a root -> "/v1/<route>"; a URL
 * already ending in the route stays as it is.
 */
export function openAiEndpoint(url: string, route: string, flag: string, example: string): string {
  const parsed = parseHttpUrl(url, flag, example);
  const path = parsed.pathname.replace(/\/+$/, "");
  if (path.endsWith(`/${route}`)) return parsed.toString();
  parsed.pathname = path.endsWith("/v1") ? `${path}/${route}` : `${path}/v1/${route}`;
  return parsed.toString();
}

/** An API key read from an environment variable, and what a request and its messages make of it. */
export interface BearerKey {
  /** The variable's name, for messages. */
  keyEnv: string;
  key?: string;
  /** postJsonWithRetries' context fields: the Authorization header (none without a key), how messages name the
   * key, and the secret they redact. */
  auth: Pick<PostJsonContext, "headers" | "keySource" | "secret">;
}

/**
 * The key in `$keyEnv` (default `defaultEnv`); unset or empty means no Authorization header, unless the user named
 * the variable with `flag`: then it must hold a key, or a SeamlabError says so.
 */
export function readBearerKey(
  keyEnv: string | undefined,
  defaultEnv: string,
  flag: string,
  environment: Record<string, string | undefined> = process.env,
): BearerKey {
  const name = keyEnv ?? defaultEnv;
  const key = environment[name] || undefined;
  if (keyEnv !== undefined && !key)
    throw new SeamlabError(`${flag} names $${name}, but that environment variable is empty or unset.`);
  return {
    keyEnv: name,
    key,
    auth: {
      headers: key ? { authorization: `Bearer ${key}` } : {},
      keySource: key ? `the key in $${name}` : `$${name} (unset: no key was sent)`,
      secret: key,
    },
  };
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Parses Retry-After (delta-seconds or an HTTP date) into ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export async function postJsonWithRetries(
  body: unknown,
  context: PostJsonContext,
  options: HttpRetryOptions = {},
): Promise<unknown> {
  const {
    maxRetries = 4,
    timeoutMs = 60_000,
    backoffMs = 500,
    maxBackoffMs = 30_000,
    maxRetryAfterMs = 120_000,
    sleep = realSleep,
  } = options;
  const redact = (text: string) => (context.secret ? text.split(context.secret).join("<redacted>") : text);
  const payload = JSON.stringify(body);
  let lastProblem = "";
  const deadline = options.deadline ?? Infinity;
  let attempts = 0;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (Date.now() >= deadline) {
      throw new SeamlabError(
        `${context.what}: gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}` +
          (lastProblem ? ` (last: ${lastProblem})` : "") +
          `: ${options.deadlineName ?? "the deadline"} passed, at ${context.url}.`,
      );
    }
    if (context.budget.remaining <= 0) {
      throw new SeamlabError(
        `${context.what}: request budget of ${context.budget.total} used up` +
          (lastProblem ? ` (last attempt: ${lastProblem})` : "") +
          `. Raise it with ${context.budgetFlag} if the server is healthy.`,
      );
    }
    context.budget.remaining--;
    attempts++;
    const backoff = Math.min(maxBackoffMs, backoffMs * 2 ** attempt, Math.max(0, deadline - Date.now()));
    const attemptMs = Math.max(1, Math.min(timeoutMs, deadline - Date.now()));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), attemptMs);
    let status: number;
    let text: string;
    let retryAfter: string | null;
    try {
      const response = await fetch(context.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...context.headers },
        body: payload,
        signal: controller.signal,
      });
      status = response.status;
      retryAfter = response.headers.get("retry-after");
      text = await response.text();
    } catch (error) {
      const timedOut = controller.signal.aborted;
      lastProblem = timedOut
        ? `no answer within ${attemptMs} ms`
        : `connection failed (${redact(describeFetchError(error))})`;
      clearTimeout(timer);
      if (attempt < maxRetries) await sleep(backoff);
      continue;
    } finally {
      clearTimeout(timer);
    }
    if (status >= 200 && status < 300) {
      try {
        return JSON.parse(text);
      } catch {
        throw new SeamlabError(
          `${context.what}: the server answered ${status} with a body that is not JSON: ${snippet(redact(text))}`,
        );
      }
    }
    if (status === 401 || status === 403) {
      throw new SeamlabError(
        `${context.what}: the server refused the credentials (HTTP ${status}). Check ${context.keySource}; ` +
          `the key itself is never printed. Server said: ${snippet(redact(text))}`,
      );
    }
    if (status === 429 || status >= 500) {
      lastProblem = `HTTP ${status}`;
      if (attempt === maxRetries) break;
      const asked = status === 429 ? retryAfterMs(retryAfter) : undefined;
      if (asked !== undefined && asked > maxRetryAfterMs) {
        throw new SeamlabError(
          `${context.what}: rate-limited (HTTP 429) and asked to wait ${Math.round(asked / 1000)} s, longer than ` +
            `the ${Math.round(maxRetryAfterMs / 1000)} s we agree to wait. Try later or with a smaller batch.`,
        );
      }
      await sleep(Math.min(asked ?? backoff, Math.max(0, deadline - Date.now())));
      continue;
    }
    throw new SeamlabError(`${context.what}: HTTP ${status} from ${context.url}: ${snippet(redact(text))}`);
  }
  throw new SeamlabError(
    `${context.what}: gave up after ${maxRetries + 1} attempts (last: ${lastProblem}) at ${context.url}.`,
  );
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat || "(empty body)";
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}

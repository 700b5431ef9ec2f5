import { SeamlabError } from "../core/errors";

/**
 * POSTs JSON the HTTP clients' way: exponential backoff on 429 (honouring Retry-After) and 5xx, a per-attempt timeout,
 * a request budget shared by a client's calls, a SeamlabError on other 4xx; messages name the key's variable, never it.
 */
export interface HttpRetryOptions {
  /** Attempts after the first (default 4). */
  maxRetries?: number;
  timeoutMs?: number;
  /** First backoff delay in ms, doubling per retry, capped at 30 s. */
  backoffMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** A `Date.now()` time by which the request, retries included, must be done; `deadlineName` says what set it. */
  deadline?: number;
  deadlineName?: string;
}

export interface RequestBudget {
  /** Requests left; every attempt spends one. */
  remaining: number;
  readonly total: number;
}

interface PostJsonContext {
  /** Who is asking, for messages. */
  what: string;
  url: string;
  headers: Record<string, string>;
  /** How the key was provided, for the 401/403 message: "the key in $SEAMLAB_EMBED_KEY". */
  keySource: string;
  /** Removed from any text that could reach a message (server bodies that echo headers). */
  secret?: string;
  budget: RequestBudget;
  /** The option that raises the budget. */
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

/** ".../v1" -> ".../v1/<route>"; a root -> "/v1/<route>"; a URL already ending in the route stays as it is. */
export function openAiEndpoint(url: string, route: string, flag: string, example: string): string {
  const parsed = parseHttpUrl(url, flag, example);
  const path = parsed.pathname.replace(/\/+$/, "");
  if (path.endsWith(`/${route}`)) return parsed.toString();
  parsed.pathname = path.endsWith("/v1") ? `${path}/${route}` : `${path}/v1/${route}`;
  return parsed.toString();
}

/** An API key read from an environment variable, and the request fields made of it. */
export interface BearerKey {
  keyEnv: string;
  key?: string;
  auth: Pick<PostJsonContext, "headers" | "keySource" | "secret">;
}

/** `$keyEnv`'s key (default `defaultEnv`); none when unset or empty, an error if `flag` named the variable. */
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

/** Retry-After (delta-seconds or an HTTP date) in ms; undefined when absent or unreadable. */
function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export async function postJsonWithRetries(
  body: unknown,
  context: PostJsonContext,
  options: HttpRetryOptions = {},
): Promise<unknown> {
  const { maxRetries = 4, timeoutMs = 60_000, backoffMs = 500, sleep = realSleep } = options;
  const maxBackoffMs = 30_000;
  // The longest Retry-After we agree to wait; longer asks fail with a clear error.
  const maxRetryAfterMs = 120_000;
  const redact = (text: string) => (context.secret ? text.split(context.secret).join("<redacted>") : text);
  const payload = JSON.stringify(body);
  let lastProblem = "";
  const deadline = options.deadline ?? Infinity;
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (Date.now() >= deadline) {
      throw new SeamlabError(
        `${context.what}: gave up after ${attempt} attempt${attempt === 1 ? "" : "s"}` +
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

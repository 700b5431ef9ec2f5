import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { SeamlabError } from "../../src/core/errors";
import { embeddingsEndpoint, openAiCompatibleEmbedder } from "../../src/embed/openai-compatible";
import { withVectorCache } from "../../src/embed/vector-cache";
import { json, raw, Reply, SeenRequest, silent, startLocalServer } from "../helpers/local-server";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

async function serve(replies: Reply[]) {
  const server = await startLocalServer(replies);
  closers.push(server.close);
  return server;
}

/** Answers like an embeddings server: vector i = [length of input i, 1], data listed in reverse order. */
const embeddings: Reply = (request: SeenRequest, response) => {
  const input = (request.body as { input: string[] }).input;
  const data = input.map((text, index) => ({ object: "embedding", index, embedding: [text.length, 1] })).reverse();
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ object: "list", data, model: "m" }));
};

function recordSleeps() {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (ms: number) => void sleeps.push(ms) };
}

test("the endpoint is derived from a base URL, a /v1 URL or a full /embeddings URL", () => {
  assert.equal(embeddingsEndpoint("http://127.0.0.1:8080"), "http://127.0.0.1:8080/v1/embeddings");
  assert.equal(embeddingsEndpoint("http://127.0.0.1:8080/v1/"), "http://127.0.0.1:8080/v1/embeddings");
  assert.equal(embeddingsEndpoint("http://h/openai/v1/embeddings"), "http://h/openai/v1/embeddings");
  assert.throws(() => embeddingsEndpoint("not a url"), SeamlabError);
  assert.throws(() => embeddingsEndpoint("ftp://h/v1"), /http or https/);
});

test("the embedder batches inputs, sends the key from the named variable, and returns vectors in input order", async () => {
  const server = await serve([embeddings]);
  const embedder = openAiCompatibleEmbedder({
    url: `${server.url}/v1`,
    model: "test-model",
    keyEnv: "TEST_KEY",
    environment: { TEST_KEY: "sk-secret-123" },
    batchSize: 2,
  });
  const vectors = await embedder.embed(["a", "bbb", "cc", "dddd", "e"]);
  assert.equal(server.seen.length, 3, "five texts in batches of two take three requests");
  assert.deepEqual(
    server.seen.map((r) => (r.body as { input: string[] }).input),
    [["a", "bbb"], ["cc", "dddd"], ["e"]],
  );
  assert.equal(server.seen[0].url, "/v1/embeddings");
  assert.equal(server.seen[0].headers.authorization, "Bearer sk-secret-123");
  assert.equal((server.seen[0].body as { model: string }).model, "test-model");
  // [3, 1] normalised: the server listed data in reverse, the client put it back in order.
  assert.ok(Math.abs(vectors[1][0] - 3 / Math.sqrt(10)) < 1e-6);
  assert.ok(Math.abs(vectors[3][0] - 4 / Math.sqrt(17)) < 1e-6);
  assert.equal(embedder.dimensions, 2);
  assert.equal(embedder.inputs.embedded, 5);
  assert.ok(!embedder.name.includes("sk-secret") && !embedder.id.includes("sk-secret"));
});

test("a 429 with Retry-After is retried after the time the server asked for", async () => {
  const server = await serve([json(429, { error: "slow down" }, { "retry-after": "2" }), embeddings]);
  const { sleeps, sleep } = recordSleeps();
  const embedder = openAiCompatibleEmbedder({ url: server.url, model: "m", sleep, backoffMs: 10 });
  const vectors = await embedder.embed(["abc"]);
  assert.equal(vectors.length, 1);
  assert.deepEqual(sleeps, [2000]);
  assert.equal(server.seen.length, 2);
});

test("500s are retried with exponential backoff, then succeed", async () => {
  const server = await serve([raw(500, "oops"), raw(503, "busy"), embeddings]);
  const { sleeps, sleep } = recordSleeps();
  const embedder = openAiCompatibleEmbedder({ url: server.url, model: "m", sleep, backoffMs: 10 });
  await embedder.embed(["abc"]);
  assert.deepEqual(sleeps, [10, 20]);
});

test("persistent 500s end in a SeamlabError that names the attempts", async () => {
  const server = await serve([raw(500, "oops")]);
  const { sleep } = recordSleeps();
  const embedder = openAiCompatibleEmbedder({ url: server.url, model: "m", sleep, maxRetries: 2 });
  await assert.rejects(
    embedder.embed(["abc"]),
    (e: Error) => e instanceof SeamlabError && /gave up after 3 attempts \(last: HTTP 500\)/.test(e.message),
  );
  assert.equal(server.seen.length, 3);
});

test("the request budget stops retries and says which option raises it", async () => {
  const server = await serve([raw(502, "bad gateway")]);
  const { sleep } = recordSleeps();
  const embedder = openAiCompatibleEmbedder({ url: server.url, model: "m", sleep, maxRetries: 10, maxRequests: 3 });
  await assert.rejects(embedder.embed(["abc"]), /request budget of 3 used up.*--embed-max-requests/);
  assert.equal(server.seen.length, 3);
});

test("a body that is not JSON, or JSON of the wrong shape, is a clear SeamlabError", async () => {
  const notJson = await serve([raw(200, "<html>proxy error</html>")]);
  await assert.rejects(
    openAiCompatibleEmbedder({ url: notJson.url, model: "m" }).embed(["a"]),
    /not JSON: <html>proxy error/,
  );
  const wrongShape = await serve([json(200, { embeddings: [[1, 2]] })]);
  await assert.rejects(
    openAiCompatibleEmbedder({ url: wrongShape.url, model: "m" }).embed(["a"]),
    /malformed answer.*"data" is missing/,
  );
  const wrongCount = await serve([json(200, { data: [{ index: 0, embedding: [1] }] })]);
  await assert.rejects(
    openAiCompatibleEmbedder({ url: wrongCount.url, model: "m" }).embed(["a", "b"]),
    /sent 2 inputs but got 1/,
  );
  const badVector = await serve([json(200, { data: [{ index: 0, embedding: "AAAA" }] })]);
  await assert.rejects(
    openAiCompatibleEmbedder({ url: badVector.url, model: "m" }).embed(["a"]),
    /base64 encoding is not supported/,
  );
});

test("a server that does not answer in time is abandoned after the timeout", async () => {
  const server = await serve([silent]);
  const embedder = openAiCompatibleEmbedder({
    url: server.url,
    model: "m",
    timeoutMs: 100,
    maxRetries: 1,
    sleep: async () => {},
  });
  const started = Date.now();
  await assert.rejects(embedder.embed(["a"]), /gave up after 2 attempts \(last: no answer within 100 ms\)/);
  // The silent server never answers: only the timeout ends this. The bound is generous so load cannot fail it.
  assert.ok(Date.now() - started < 60_000);
  // The message above proves two attempts. The server records a request once its body has arrived, which on a
  // loaded machine can take longer than the 100 ms after which the client hangs up: it may have seen only one.
  assert.ok(server.seen.length >= 1 && server.seen.length <= 2, `server saw ${server.seen.length} requests`);
});

test("an auth failure names the variable, never the key, even when the server echoes it", async () => {
  const server = await serve([json(401, { error: "invalid key sk-secret-123" })]);
  const embedder = openAiCompatibleEmbedder({
    url: server.url,
    model: "m",
    keyEnv: "MY_KEY",
    environment: { MY_KEY: "sk-secret-123" },
  });
  await assert.rejects(embedder.embed(["a"]), (e: Error) => {
    assert.ok(e instanceof SeamlabError);
    assert.match(e.message, /refused the credentials \(HTTP 401\)\. Check the key in \$MY_KEY/);
    assert.ok(!e.message.includes("sk-secret-123"), e.message);
    return true;
  });
  assert.equal(server.seen.length, 1, "auth failures are not retried");
  assert.throws(
    () => openAiCompatibleEmbedder({ url: server.url, model: "m", keyEnv: "UNSET_KEY", environment: {} }),
    /\$UNSET_KEY.*unset/,
  );
});

test("inputs over the token limit are rejected by default and truncated, counted, when asked", async () => {
  const server = await serve([embeddings]);
  const long = "one two three four five six seven eight";
  const strict = openAiCompatibleEmbedder({ url: server.url, model: "m", maxInputTokens: 4 });
  await assert.rejects(
    strict.embed(["short", long]),
    /1 of 2 inputs exceed its 4-token limit \(first: input #1, 8 tokens\)/,
  );
  assert.equal(server.seen.length, 0, "nothing is sent when an input is rejected");
  const lenient = openAiCompatibleEmbedder({ url: server.url, model: "m", maxInputTokens: 4, overLimit: "truncate" });
  await lenient.embed(["short", long]);
  assert.deepEqual((server.seen[0].body as { input: string[] }).input, ["short", "one two three four"]);
  assert.deepEqual(lenient.inputs, { embedded: 2, overLimit: 1, truncated: 1, longestTokens: 8 });
});

test("batches run concurrently up to the limit, and vectors still come back in input order", async () => {
  let inFlight = 0;
  let most = 0;
  const slow: Reply = (request, response) => {
    inFlight++;
    most = Math.max(most, inFlight);
    // Later batches answer sooner, so finishing order is the reverse of input order.
    const input = (request.body as { input: string[] }).input;
    setTimeout(
      () => {
        inFlight--;
        embeddings(request, response);
      },
      60 - 5 * input[0].length,
    );
  };
  const server = await serve([slow]);
  const embedder = openAiCompatibleEmbedder({ url: server.url, model: "m", batchSize: 1, concurrency: 3 });
  const texts = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg"];
  const vectors = await embedder.embed(texts);
  assert.equal(server.seen.length, 7);
  assert.equal(most, 3, "never more than three requests in flight, and three were");
  // vector i = [len, 1] normalised: its first entry gives the input back.
  vectors.forEach((v, i) => assert.ok(Math.abs(v[0] / v[1] - texts[i].length) < 1e-4, `vector ${i}`));
  assert.throws(() => openAiCompatibleEmbedder({ url: server.url, model: "m", concurrency: 0 }), /--embed-concurrency/);
});

test("an embedding interrupted by a failing server resumes from the on-disk cache without re-embedding saved slices", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-resume-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true }));
  const texts = Array.from({ length: 20 }, (_, i) => `text number ${i} ${"x".repeat(i)}`);
  // First run: five good answers (10 texts in batches of 2), then a failure that is not retried; then healthy again.
  const server = await serve([...(Array(5).fill(embeddings) as Reply[]), raw(400, "bad request"), embeddings]);
  const first = withVectorCache(
    openAiCompatibleEmbedder({ url: server.url, model: "m", batchSize: 2, concurrency: 1 }),
    dir,
    { saveEvery: 4 },
  );
  await assert.rejects(first.embed(texts), /HTTP 400/);
  // Slices of 4 texts: two were saved whole (8 texts); the third slice's first batch was lost with the failure.
  const before = server.seen.length;
  const second = withVectorCache(
    openAiCompatibleEmbedder({ url: server.url, model: "m", batchSize: 2, concurrency: 2 }),
    dir,
    { saveEvery: 4 },
  );
  const resumed = await second.embed(texts);
  const asked = server.seen.slice(before).flatMap((r) => (r.body as { input: string[] }).input);
  assert.deepEqual(asked.sort(), texts.slice(8).sort(), "only the 12 texts not saved are embedded again");
  assert.deepEqual(second.cache, { hits: 8, misses: 12, dir: second.cache.dir });
  const fresh = await openAiCompatibleEmbedder({ url: server.url, model: "m" }).embed(texts);
  assert.deepEqual(resumed, fresh, "the resumed vectors equal an uninterrupted run's");
});

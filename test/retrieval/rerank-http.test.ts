import assert from "node:assert/strict";
import { after, test } from "node:test";
import type { Chunk } from "../../src/core/types";
import { SeamlabError } from "../../src/core/errors";
import { httpReranker } from "../../src/retrieval/rerank-http";
import { json, raw, Reply, silent, startLocalServer } from "../helpers/local-server";

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers) await close();
});
async function serve(replies: Reply[]) {
  const server = await startLocalServer(replies);
  closers.push(server.close);
  return server;
}

const chunks: Chunk[] = ["alpha", "beta gamma", "delta", "epsilon zeta eta"].map((text, i) => ({
  doc: "d",
  start: i * 50,
  end: i * 50 + text.length,
  text,
}));
const candidates = [0, 1, 2, 3].map((index) => ({ index, score: 4 - index }));

/** Scores each document by its length (longer = more relevant), in the cohere shape, best first. */
const cohere: Reply = (request, response) => {
  const documents = (request.body as { documents: string[] }).documents;
  const results = documents
    .map((d, index) => ({ index, relevance_score: d.length / 100 }))
    .sort((a, b) => b.relevance_score - a.relevance_score);
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ id: "x", results }));
};

/** The same scores in the text-embeddings-inference shape: a bare list of {index, score}. */
const tei: Reply = (request, response) => {
  const texts = (request.body as { texts: string[] }).texts;
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(texts.map((t, index) => ({ index, score: t.length / 100 }))));
};

test("the cohere-shaped client sends query + documents and reorders candidates by the scores", async () => {
  const server = await serve([cohere]);
  const reranker = httpReranker({
    url: `${server.url}/v1/rerank`,
    model: "rerank-x",
    keyEnv: "K",
    environment: { K: "secret-key" },
  });
  const top = await reranker.rerank("q", candidates, chunks, 2);
  assert.deepEqual(
    top.map((r) => r.index),
    [3, 1],
  );
  assert.deepEqual(server.seen[0].body, {
    model: "rerank-x",
    query: "q",
    documents: ["alpha", "beta gamma", "delta", "epsilon zeta eta"],
  });
  assert.equal(server.seen[0].url, "/v1/rerank");
  assert.equal(server.seen[0].headers.authorization, "Bearer secret-key");
  assert.ok(!reranker.name.includes("secret"));
});

test("the tei-shaped client sends texts and reads a bare list; batches split many candidates", async () => {
  const server = await serve([tei]);
  const reranker = httpReranker({ url: `${server.url}/rerank`, protocol: "tei", batchSize: 3 });
  const top = await reranker.rerank("q", candidates, chunks, 4);
  assert.deepEqual(
    top.map((r) => r.index),
    [3, 1, 0, 2],
    "alpha and delta tie at 5 chars: first-stage order wins",
  );
  assert.equal(server.seen.length, 2);
  assert.deepEqual(server.seen[0].body, { query: "q", texts: ["alpha", "beta gamma", "delta"], truncate: true });
});

test("429 with Retry-After and 500s are retried; a timeout and a malformed body are clear errors", async () => {
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const flaky = await serve([json(429, {}, { "retry-after": "3" }), raw(500, "x"), cohere]);
  await httpReranker({ url: flaky.url, sleep, backoffMs: 10 }).rerank("q", candidates, chunks, 1);
  assert.deepEqual(sleeps, [3000, 20]);
  const missing = await serve([json(200, { results: [{ index: 0, relevance_score: 1 }] })]);
  await assert.rejects(
    httpReranker({ url: missing.url }).rerank("q", candidates, chunks, 1),
    /scored 1 of 4 documents/,
  );
  const garbage = await serve([raw(200, "nope")]);
  await assert.rejects(httpReranker({ url: garbage.url }).rerank("q", candidates, chunks, 1), /not JSON/);
  const hang = await serve([silent]);
  await assert.rejects(
    httpReranker({ url: hang.url, timeoutMs: 100, maxRetries: 0 }).rerank("q", candidates, chunks, 1),
    /no answer within 100 ms/,
  );
});

test("a 403 is a SeamlabError naming the variable, not the key", async () => {
  const server = await serve([json(403, { message: "forbidden for key topsecret" })]);
  await assert.rejects(
    httpReranker({ url: server.url, keyEnv: "RK", environment: { RK: "topsecret" } }).rerank(
      "q",
      candidates,
      chunks,
      1,
    ),
    (e: Error) => e instanceof SeamlabError && /HTTP 403.*\$RK/.test(e.message) && !e.message.includes("topsecret"),
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { startLocalServer, type SeenRequest } from "../helpers/local-server";
import {
  chatEndpoint,
  estimateCost,
  estimateGeneration,
  generateQueries,
  readJournal,
  type GenerateOptions,
} from "../../src/retrieval/llm-generate";
import type { Doc } from "../../src/core/types";

// Eight documents of three paragraphs; every sentence is unique, so excerpts locate once.
const docs: Doc[] = Array.from({ length: 8 }, (_, d) => ({
  id: `doc${d}.md`,
  text: Array.from(
    { length: 3 },
    (_, p) => `Record ${d}-${p} says the harbour keeper logged ${d * 10 + p} barrels. The tide was high that day.`,
  ).join("\n\n"),
}));
const A = ["amber", "basalt", "cobalt", "dune", "ember", "fjord", "garnet", "heron"];
const B = ["iris", "jade", "kelp"];
const C = ["lark", "moss", "nettle", "opal", "pine", "quartz", "reed", "slate"];
const D = ["thistle", "umber", "violet"];

type Handler = (request: SeenRequest, response: ServerResponse, chatCall: number) => void;

/** A server speaking chat-completions on 127.0.0.1; `/models` lists `models` (or 404 when undefined). */
async function chatServer(handler: Handler, models: string[] | undefined = ["test-model"]) {
  let chatCalls = 0;
  const server = await startLocalServer([
    (request, response) => {
      if (request.method === "GET" && request.url.endsWith("/models")) {
        if (!models) {
          response.writeHead(404).end("not found");
          return;
        }
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model" })) }));
        return;
      }
      handler(request, response, chatCalls++);
    },
  ]);
  return { ...server, chatRequests: () => server.seen.filter((s) => s.method === "POST") };
}

/** The passage a request asked about. */
function passageOf(request: SeenRequest): string {
  const body = request.body as { messages: { content: string }[] };
  return /<passage>\n([\s\S]*)\n<\/passage>/.exec(body.messages[1].content)![1];
}

/** A well-behaved model: a rephrased question and the passage's first sentence, wrapped differently. */
function answer(request: SeenRequest, response: ServerResponse, extra: Record<string, unknown> = {}) {
  const passage = passageOf(request);
  const first = /^[^.]*\./.exec(passage)![0];
  const [d, p] = /Record (\d)-(\d)/.exec(first)!.slice(1).map(Number);
  // no two questions share more than half their terms: none is a near-duplicate of another
  const question = `Which ${A[d]} ${C[d]} holds ${B[p]} ${D[p]}?`;
  const content = JSON.stringify({ question, excerpts: [first.replace(/ /g, "\n")], ...extra });
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      choices: [{ index: 0, message: { role: "assistant", content } }],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    }),
  );
}

function options(url: string, dir: string, extra: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    url: `${url}/v1`,
    model: "test-model",
    n: 6,
    passageChars: 200,
    journal: join(dir, "journal.jsonl"),
    environment: {},
    sleep: async () => {},
    backoffMs: 1,
    ...extra,
  };
}

test("chat endpoint URLs: base, /v1 and a full endpoint", () => {
  assert.equal(chatEndpoint("http://127.0.0.1:8080"), "http://127.0.0.1:8080/v1/chat/completions");
  assert.equal(chatEndpoint("http://h/v1/"), "http://h/v1/chat/completions");
  assert.equal(chatEndpoint("http://h/api/v1/chat/completions"), "http://h/api/v1/chat/completions");
  assert.throws(() => chatEndpoint("ftp://h"), /--llm-url must use http/);
  assert.throws(() => chatEndpoint("nonsense"), /--llm-url must be an http\(s\) URL/);
});

test("generation survives 429 with Retry-After, 500s, malformed replies and an answer in the wrong document", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-"));
  const waits: number[] = [];
  const server = await chatServer((request, response, call) => {
    if (call === 0) return void response.writeHead(429, { "retry-after": "3" }).end("slow down");
    if (call === 1) return void response.writeHead(500).end("oops");
    const passage = passageOf(request);
    if (passage.startsWith("Record 1-")) {
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(JSON.stringify({ choices: [{ message: { content: "Here is your question!" } }] }));
    }
    if (passage.startsWith("Record 2-")) return void response.writeHead(200).end("<html>gateway</html>");
    if (passage.startsWith("Record 3-")) return void answer(request, response, { excerpts: ["Record 7-0 says"] });
    answer(request, response);
  });
  try {
    const result = await generateQueries(
      docs,
      options(server.url, dir, { n: 8, concurrency: 1, sleep: async (ms) => void waits.push(ms) }),
    );
    assert.equal(waits[0], 3000, "Retry-After honoured");
    assert.deepEqual(result.dropped, {
      requestFailed: 0,
      malformedReply: 2,
      excerptNotFound: 0,
      excerptFromOtherDocument: 1,
      copiesExcerpt: 0,
      nearDuplicate: 0,
    });
    assert.equal(result.queries.length, 5);
    for (const q of result.queries) {
      const doc = docs.find((d) => d.id === q.doc)!;
      assert.match(
        doc.text.slice(q.gold[0].start, q.gold[0].end),
        /^Record \d-\d says the harbour keeper logged \d+ barrels\.$/,
      );
    }
    // 8 passages + the 429 and the 500 retried
    assert.equal(server.chatRequests().length, 10);
    assert.equal(result.usage.completionTokens, 6 * 20);
    const sent = server.chatRequests()[0].body as { model: string; temperature: number; max_tokens: number };
    assert.equal(sent.model, "test-model");
    assert.equal(sent.max_tokens, 400);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a request that times out on every attempt is counted as failed, and the run goes on", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-"));
  const server = await chatServer((request, response) => {
    if (passageOf(request).startsWith("Record 4-")) return; // never answers
    answer(request, response);
  });
  try {
    const result = await generateQueries(docs, options(server.url, dir, { timeoutMs: 300, maxRetries: 1 }));
    assert.equal(result.dropped.requestFailed, 1);
    assert.equal(result.queries.length, 5);
    assert.equal(readJournal(join(dir, "journal.jsonl")).size, 5, "the failed request is not journaled");
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an interrupted run resumes: the second run asks only what the first did not get", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-"));
  const first = await chatServer((request, response, call) => {
    if (call >= 3) return void response.writeHead(400, { "content-type": "application/json" }).end('{"error":"stop"}');
    answer(request, response);
  });
  try {
    await assert.rejects(
      generateQueries(docs, options(first.url, dir, { concurrency: 1 })),
      /HTTP 400[\s\S]*3 replies so far are kept in .*journal\.jsonl; a rerun continues/,
    );
  } finally {
    await first.close();
  }
  // a torn last line, as a killed process leaves it, is ignored
  writeFileSync(join(dir, "journal.jsonl"), readFileSync(join(dir, "journal.jsonl"), "utf8") + '{"key":"ab');
  const estimate = estimateGeneration(docs, options("http://127.0.0.1:9", dir));
  assert.equal(estimate.cached, 3);
  assert.equal(estimate.requests, 3);
  assert.ok(estimate.promptTokens > 3 * 50);
  assert.equal(estimate.maxCompletionTokens, 3 * 400);
  assert.equal(estimateCost(estimate, 1, 2), (estimate.promptTokens + 2 * estimate.maxCompletionTokens) / 1e6);
  const second = await chatServer((request, response) => answer(request, response));
  try {
    const result = await generateQueries(docs, options(second.url, dir, { concurrency: 3 }));
    assert.equal(second.chatRequests().length, 3);
    assert.equal(result.usage.cachedReplies, 3);
    assert.equal(result.queries.length, 6);
    // a third run asks nothing at all (and does not even need the server)
    const third = await generateQueries(docs, options("http://127.0.0.1:9", dir));
    assert.deepEqual(third.queries, result.queries);
  } finally {
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("clear errors: unreachable endpoint, a model the server does not list, a model it answers 404 for", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-"));
  const closed = await chatServer(() => {});
  const closedUrl = closed.url;
  await closed.close();
  await assert.rejects(generateQueries(docs, options(closedUrl, dir)), /cannot reach the chat endpoint at .*--llm-url/);
  const listed = await chatServer((request, response) => answer(request, response), ["llama3", "qwen2"]);
  const unlisted = await chatServer(
    (_request, response) =>
      void response
        .writeHead(404, { "content-type": "application/json" })
        .end('{"error":{"message":"model \\"test-model\\" not found, try pulling it first"}}'),
    undefined,
  );
  try {
    await assert.rejects(
      generateQueries(docs, options(listed.url, dir)),
      /does not know model "test-model" \(--llm-model\); it offers: llama3, qwen2/,
    );
    assert.equal(listed.chatRequests().length, 0, "checked before any question is asked");
    await assert.rejects(generateQueries(docs, options(unlisted.url, dir)), /does not seem to know model "test-model"/);
  } finally {
    await listed.close();
    await unlisted.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

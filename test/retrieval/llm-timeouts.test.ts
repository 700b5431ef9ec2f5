// `queries generate` against endpoints that do not answer: nothing waits without end or in silence. Servers run
// on 127.0.0.1 only, and every wait here is bounded by a short limit the test sets.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { startLocalServer, type SeenRequest } from "../helpers/local-server";
import { generateQueries, readJournal, type GenerateOptions } from "../../src/retrieval/llm-generate";
import { waitingLine, type WaitingStatus } from "../../src/retrieval/llm-wait";
import type { Doc } from "../../src/core/types";

const docs: Doc[] = Array.from({ length: 6 }, (_, d) => ({
  id: `doc${d}.md`,
  text: `Record ${d} says the harbour keeper logged ${d * 7} barrels on the quay. The tide was high that day.`,
}));

/** Lists the model on GET /models (unless `models` is false) and hands chat requests to `chat`. */
async function server(chat: (request: SeenRequest, response: ServerResponse) => void, models = true) {
  return startLocalServer([
    (request, response) => {
      if (request.method === "GET") {
        if (!models) return; // never answers
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ data: [{ id: "m" }] }));
        return;
      }
      chat(request, response);
    },
  ]);
}

function options(url: string, dir: string, extra: Partial<GenerateOptions> = {}): GenerateOptions {
  return {
    url: `${url}/v1`,
    model: "m",
    n: 6,
    passageChars: 100,
    journal: join(dir, "journal.jsonl"),
    environment: {},
    sleep: async () => {},
    backoffMs: 1,
    ...extra,
  };
}

test(
  "a chat endpoint that never answers stops the run after one request limit, reporting while it waits",
  {
    timeout: 60_000,
  },
  async () => {
    const silent = await server(() => {}); // accepts the request, never answers
    const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-timeout-"));
    const heard: WaitingStatus[] = [];
    try {
      await assert.rejects(
        generateQueries(
          docs,
          options(silent.url, dir, {
            concurrency: 2,
            requestTimeoutMs: 800,
            heartbeatMs: 200,
            onWaiting: (s) => heard.push(s),
          }),
        ),
        /answered none of 2 requests, each given 0\.8 s \(--llm-timeout\): is the model loaded/,
      );
      assert.ok(heard.length >= 1, "progress was reported while waiting");
      assert.equal(heard[0].answered, 0);
      assert.equal(heard[0].inFlight, 2);
      assert.match(
        waitingLine(heard[0]),
        /^waiting on the chat endpoint: 0 of 6 requests settled \(0 answered\), 2 in flight/,
      );
      // per attempt 60 s and 4 retries by default: the request limit, not the attempts, decides; the worker freed
      // by the first timeout may send one more request before the second ends the run
      const posts = silent.seen.filter((r) => r.method === "POST").length;
      assert.ok(posts >= 2 && posts <= 3, `${posts} requests sent`);
    } finally {
      await silent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "a server that does not answer GET /models either is reported as unreachable within the attempt limit",
  {
    timeout: 60_000,
  },
  async () => {
    const dead = await server(() => {}, false);
    const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-timeout-"));
    try {
      await assert.rejects(
        generateQueries(docs, options(dead.url, dir, { timeoutMs: 300 })),
        /cannot reach the chat endpoint at .* \(no answer in time\)/,
      );
    } finally {
      await dead.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  "the run's --deadline stops a slow endpoint, keeping what it answered in the journal",
  { timeout: 60_000 },
  async () => {
    // answers each request after 250 ms: at one request at a time, a 600 ms deadline lets about two through
    const slow = await server((request, response) => {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "application/json" });
        const content = JSON.stringify({ question: "How many barrels?", excerpts: ["the harbour keeper logged"] });
        response.end(JSON.stringify({ choices: [{ message: { content } }] }));
      }, 250);
    });
    const dir = mkdtempSync(join(tmpdir(), "seamlab-llm-timeout-"));
    try {
      await assert.rejects(
        generateQueries(docs, options(slow.url, dir, { concurrency: 1, deadlineMs: 600 })),
        (error: Error) => {
          const match =
            /^--deadline \(0\.6 s\) passed with (\d) of 6 requests settled \((\d) answered\): raise --deadline/.exec(
              error.message,
            );
          assert.ok(match, error.message);
          assert.ok(Number(match[2]) >= 1 && Number(match[2]) < 6);
          assert.match(error.message, /replies so far are kept in .*journal\.jsonl; a rerun continues from there/);
          assert.equal(readJournal(join(dir, "journal.jsonl")).size, Number(match[2]));
          return true;
        },
      );
    } finally {
      await slow.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { startLocalServer } from "../helpers/local-server";
import { hashFolder } from "./spawn-cli";

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const original = { out: process.stdout.write, err: process.stderr.write };
  // the CLI writes strings; the test runner's own (binary) reports pass through
  const write = (sink: string[]) =>
    function (this: NodeJS.WriteStream, chunk: string | Uint8Array, ...rest: unknown[]) {
      if (typeof chunk !== "string")
        return (original.out as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
      sink.push(chunk);
      return true;
    };
  (process.stdout as { write: unknown }).write = write(out);
  (process.stderr as { write: unknown }).write = write(err);
  try {
    return { code: await fn(), out: out.join(""), err: err.join("") };
  } finally {
    (process.stdout as { write: unknown }).write = original.out;
    (process.stderr as { write: unknown }).write = original.err;
  }
}

const sentence = (doc: string, i: number) =>
  `In ${doc} the keeper wrote entry ${i} about barrels along the harbour wall at dusk.`;

/** Two prose documents, no headings: ICT is the only built-in source that works. */
function proseFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-queries-"));
  for (const name of ["north", "south"]) {
    const paragraphs = Array.from({ length: 4 }, (_, p) =>
      Array.from({ length: 6 }, (_, i) => sentence(name, 10 * p + i)).join(" "),
    );
    writeFileSync(join(dir, `${name}.txt`), paragraphs.join("\n\n") + "\n");
  }
  return dir;
}

test("retrieve --queries ict runs on plain prose, names its source and count, and keeps each query's document", async () => {
  const dir = proseFolder();
  try {
    const args = ["retrieve", "--corpus", dir, "--queries", "ict", "--ict-n", "12", "--size", "300", "--overlap", "0"];
    const json = await capture(() => main([...args, "--json", "--per-doc"]));
    assert.equal(json.code, 0, json.err);
    const report = JSON.parse(json.out);
    assert.equal(report.queries, 12);
    assert.equal(report.queryLabel, "12 ICT queries (sentence removed)");
    assert.equal(report.queriesFrom.kind, "ict");
    assert.deepEqual(Object.keys(report.perDoc), ["north.txt", "south.txt"]);
    const text = await capture(() => main(args));
    assert.match(text.out, /12 ICT queries \(sentence removed\)/);
    // headers on the same corpus: a clear error pointing at ICT
    const headers = await capture(() => main(["retrieve", "--corpus", dir, "--queries", "headers"]));
    assert.equal(headers.code, 2);
    assert.match(headers.err, /no markdown headings with prose under them.*--queries ict/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("--queries ict on a corpus too small to sample from is a clear error, not a stack", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-queries-"));
  writeFileSync(join(dir, "tiny.txt"), "One short line.\n");
  try {
    const result = await capture(() => main(["sweep", "--corpus", dir, "--queries", "ict", "--workers", "0"]));
    assert.equal(result.code, 2);
    assert.match(
      result.err,
      /^seamlab: corpus ".*" is too small for the 30 needed for inverse-cloze queries: 0 sentences/,
    );
    assert.doesNotMatch(result.err, /\n\s+at /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("queries ict --out writes a Chroma-shape file and the indexed text; retrieve reads them back to the same result", async () => {
  const dir = proseFolder();
  const sets = mkdtempSync(join(tmpdir(), "seamlab-sets-"));
  const out = join(sets, "ict.csv");
  try {
    const written = await capture(() => main(["queries", "ict", "--corpus", dir, "--ict-n", "10", "--out", out]));
    assert.equal(written.code, 0, written.err);
    assert.ok(existsSync(`${out}.meta.json`));
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    assert.equal(meta.queries, 10);
    assert.equal(meta.provenance.kind, "ict");
    const corpusOut = join(sets, "ict-corpus");
    assert.equal(meta.indexedCorpus, corpusOut);
    assert.match(readFileSync(out, "utf8"), /^question,references,corpus_id\n/);
    const config = ["--splitter", "recursive", "--size", "300", "--overlap", "50", "--json"];
    const built = await capture(() =>
      main(["retrieve", "--corpus", dir, "--queries", "ict", "--ict-n", "10", ...config]),
    );
    const reread = await capture(() => main(["retrieve", "--corpus", corpusOut, "--queries", out, ...config]));
    assert.equal(reread.code, 0, reread.err);
    const a = JSON.parse(built.out);
    const b = JSON.parse(reread.out);
    assert.equal(b.queriesFrom.report.offsetsCorrected, 0, "offsets point at the written text exactly");
    assert.equal(b.queries, 10);
    assert.equal(b.hits, a.hits);
    assert.equal(b.spanRecall, a.spanRecall);
  } finally {
    rmSync(sets, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test("queries generate against a local chat server writes a file retrieve reads, with a sidecar counting drops", async () => {
  const dir = proseFolder();
  const out = join(dir, "generated.csv");
  let calls = 0;
  const server = await startLocalServer([
    (request, response) => {
      if (request.method === "GET") return void response.writeHead(404).end();
      calls++;
      const body = request.body as { messages: { content: string }[] };
      const passage = /<passage>\n([\s\S]*)\n<\/passage>/.exec(body.messages[1].content)![1];
      const first = /^[^.]*\./.exec(passage)![0];
      const entry = Number(/entry (\d+)/.exec(first)![1]);
      const words = ["gannet", "puffin", "tern", "skua", "petrel", "fulmar", "kittiwake", "shag"];
      // questions with no more than half their terms in common: none is a near-duplicate
      const question = `Which ${words[entry % 8]} ${words[(entry + 3) % 8]} came ${entry}?`;
      const content = calls === 2 ? "not JSON at all" : JSON.stringify({ question, excerpts: [first] });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ choices: [{ message: { content } }], usage: { prompt_tokens: 50, completion_tokens: 10 } }),
      );
    },
  ]);
  try {
    const args = ["queries", "generate", "--corpus", dir, "--llm-url", `${server.url}/v1`, "--llm-model", "m"];
    const run = await capture(() =>
      main([...args, "--n", "4", "--passage-chars", "600", "--concurrency", "1", "--out", out, "--price-in", "1"]),
    );
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, /^estimate: 4 requests \(0 replies already in .*\), ~\d[\d,]* prompt tokens/);
    assert.match(run.out, /wrote 3 of 4 questions .*dropped: malformedReply 1/);
    const meta = JSON.parse(readFileSync(`${out}.meta.json`, "utf8"));
    assert.equal(meta.model, "m");
    assert.equal(meta.dropped.malformedReply, 1);
    assert.equal(meta.usage.completionTokens, 40);
    assert.ok(meta.prompt.user.includes("<passage>"));
    const retrieved = await capture(() => main(["retrieve", "--corpus", dir, "--queries", out, "--json"]));
    assert.equal(retrieved.code, 0, retrieved.err);
    assert.equal(JSON.parse(retrieved.out).queries, 3);
    // a rerun asks nothing: everything is in the journal
    const again = await capture(() => main([...args, "--n", "4", "--passage-chars", "600", "--out", out, "--dry-run"]));
    assert.match(again.err, /^estimate: 0 requests \(4 replies already in/);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("queries headers --out round-trips too: the heading-free text and the file give the same hits", async () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-headers-"));
  const sets = mkdtempSync(join(tmpdir(), "seamlab-sets-"));
  writeFileSync(
    join(dir, "guide.md"),
    "# Guide\n\n## How does tail sampling work?\n\nTail sampling decides after the trace is complete. It keeps slow traces.\n\n" +
      "## Head sampling\n\nHead sampling decides at the root span. It is cheap.\n",
  );
  try {
    const out = join(sets, "headers.csv");
    const written = await capture(() => main(["queries", "headers", "--corpus", dir, "--out", out]));
    assert.equal(written.code, 0, written.err);
    assert.match(written.out, /wrote 2 header queries/);
    const config = ["--splitter", "recursive", "--size", "60", "--overlap", "0", "--k", "1", "--json"];
    const a = JSON.parse((await capture(() => main(["retrieve", "--corpus", dir, ...config]))).out);
    const b = JSON.parse(
      (await capture(() => main(["retrieve", "--corpus", join(sets, "headers-corpus"), "--queries", out, ...config])))
        .out,
    );
    assert.equal(b.queries, 2);
    assert.equal(b.hits, a.hits);
    assert.equal(b.queriesFrom.report.offsetsCorrected, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(sets, { recursive: true, force: true });
  }
});

test("queries ict|headers|generate --out refuses an existing file (a hand-labelled CSV) unless --force", async () => {
  const dir = proseFolder();
  const sets = mkdtempSync(join(tmpdir(), "seamlab-sets-"));
  const mine = join(sets, "mine.csv");
  writeFileSync(mine, "question,references,corpus_id\nmy hand-labelled question,[],north.txt\n");
  const before = readFileSync(mine);
  try {
    for (const args of [
      ["queries", "ict", "--corpus", dir, "--ict-n", "10", "--out", mine],
      ["queries", "headers", "--corpus", dir, "--out", mine],
      ["queries", "generate", "--corpus", dir, "--llm-url", "http://127.0.0.1:9/v1", "--llm-model", "m", "--out", mine],
    ]) {
      const refused = await capture(() => main(args));
      assert.equal(refused.code, 2, `${args[1]}: ${refused.err}`);
      assert.match(refused.err, /--out .*mine\.csv already exists; pass --force to overwrite it/);
      assert.deepEqual(readFileSync(mine), before, `${args[1]} left the file byte for byte`);
    }
    const forced = await capture(() =>
      main(["queries", "ict", "--corpus", dir, "--ict-n", "10", "--out", mine, "--force"]),
    );
    assert.equal(forced.code, 0, forced.err);
    assert.doesNotMatch(readFileSync(mine, "utf8"), /hand-labelled/, "--force replaces the file the user named");
  } finally {
    rmSync(sets, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test("queries ict never writes its corpus into the folder it reads, nor around it, symlinks resolved", async () => {
  const dir = proseFolder();
  const sets = mkdtempSync(join(tmpdir(), "seamlab-sets-"));
  symlinkSync(dir, join(sets, "link-to-corpus"));
  const before = hashFolder(dir);
  try {
    for (const [corpusOut, how] of [
      [dir, "is"],
      [join(dir, "generated"), "is inside"],
      [join(sets, "link-to-corpus"), "is"],
      [join(dir, ".."), "holds"],
    ]) {
      const out = join(sets, `q-${how.replace(" ", "-")}-${Math.random().toString(36).slice(2)}.csv`);
      const result = await capture(() =>
        main(["queries", "ict", "--corpus", dir, "--ict-n", "10", "--out", out, "--corpus-out", corpusOut]),
      );
      assert.equal(result.code, 2, `${corpusOut}: ${result.err}`);
      assert.match(result.err, new RegExp(`--corpus-out .* ${how} .*a folder the corpus is read from`));
      assert.equal(existsSync(out), false, "nothing written");
    }
    assert.equal(hashFolder(dir), before, "the corpus is byte for byte as it was");
  } finally {
    rmSync(sets, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a rerun of queries ict on another corpus replaces the corpus folder whole, and a folder seamlab did not write is refused", async () => {
  const first = proseFolder();
  const second = mkdtempSync(join(tmpdir(), "seamlab-queries-"));
  for (const name of ["east", "west"]) {
    const text = Array.from({ length: 24 }, (_, i) => sentence(name, i)).join(" ");
    writeFileSync(join(second, `${name}.txt`), `${text}\n\n${text.replace(/keeper/g, "warden")}\n`);
  }
  const sets = mkdtempSync(join(tmpdir(), "seamlab-sets-"));
  const out = join(sets, "mix.csv");
  try {
    for (const corpus of [first, second]) {
      const run = await capture(() =>
        main(["queries", "ict", "--corpus", corpus, "--ict-n", "10", "--out", out, "--force"]),
      );
      assert.equal(run.code, 0, run.err);
    }
    const files = readdirSync(join(sets, "mix-corpus")).sort();
    assert.deepEqual(files, [".seamlab-manifest.json", "east.txt", "west.txt"], "no file of the first corpus left");
    assert.deepEqual(readdirSync(sets).sort(), ["mix-corpus", "mix.csv", "mix.csv.meta.json"], "nothing left beside");
    // A file the user put into it, or a folder of the user's under that name, is never replaced.
    writeFileSync(join(sets, "mix-corpus", "notes.md"), "mine");
    const refused = await capture(() =>
      main(["queries", "ict", "--corpus", first, "--ict-n", "10", "--out", out, "--force"]),
    );
    assert.equal(refused.code, 2);
    assert.match(refused.err, /--corpus-out .*mix-corpus: notes\.md was not written by seamlab/);
    const users = join(sets, "users");
    mkdirSync(users);
    writeFileSync(join(users, "a.md"), "mine");
    const theirs = await capture(() =>
      main(["queries", "ict", "--corpus", first, "--ict-n", "10", "--out", out, "--force", "--corpus-out", users]),
    );
    assert.equal(theirs.code, 2);
    assert.match(theirs.err, /--corpus-out .*users exists and seamlab cannot prove it wrote it/);
    assert.equal(readFileSync(join(users, "a.md"), "utf8"), "mine");
    assert.equal(readFileSync(join(sets, "mix-corpus", "notes.md"), "utf8"), "mine");
  } finally {
    for (const path of [first, second, sets]) rmSync(path, { recursive: true, force: true });
  }
});

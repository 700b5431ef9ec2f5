import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { SeamlabError } from "../../src/core/errors";
import { checkModelDir, transformersEmbedder } from "../../src/embed/transformers";
import { cosine } from "../../src/embed/types";
import { tinyEmbeddings, tinyVocabulary, writeTinyModel } from "./tiny-model";

const scratch = mkdtempSync(join(tmpdir(), "seamlab-transformers-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(join(dir, file, ".."), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

test("a missing model folder is a SeamlabError that says how to get one", async () => {
  await assert.rejects(transformersEmbedder({ modelDir: join(scratch, "nowhere") }), (e: Error) => {
    assert.ok(e instanceof SeamlabError);
    assert.match(e.message, /--model-dir .*nowhere: no such folder\. Download a sentence-embedding model/);
    return true;
  });
});

test("a folder without config.json, or without an onnx file, is reported as incomplete", () => {
  const noConfig = folder("no-config", { "tokenizer.json": "{}" });
  assert.throws(() => checkModelDir(noConfig), /config\.json is missing/);
  const noOnnx = folder("no-onnx", { "config.json": "{}", "tokenizer.json": "{}", "onnx/model_fp16.onnx": "x" });
  assert.throws(() => checkModelDir(noOnnx), /no onnx\/model\.onnx .*found model_fp16\.onnx; rename/);
  const quantized = folder("quantized", {
    "config.json": "{}",
    "tokenizer.json": "{}",
    "onnx/model_quantized.onnx": "x",
  });
  assert.equal(checkModelDir(quantized).dtype, "q8");
});

test("loading never reaches for the network: remote models are off and an incomplete folder fails locally", async () => {
  // tokenizer_config.json is missing and the onnx file is junk: with remote loading allowed, transformers.js
  // would try to download the missing file from the hub.
  const dir = folder("incomplete", {
    "config.json": JSON.stringify({ model_type: "bert" }),
    "tokenizer.json": "{}",
    "onnx/model.onnx": "junk",
  });
  const realFetch = globalThis.fetch;
  const fetched: string[] = [];
  globalThis.fetch = (async (input: unknown) => {
    fetched.push(String(input));
    throw new Error("network is off in this test");
  }) as typeof fetch;
  try {
    await assert.rejects(transformersEmbedder({ modelDir: dir }), (e: Error) => {
      assert.ok(e instanceof SeamlabError, `expected a SeamlabError, got ${e}`);
      assert.match(e.message, /could not load the model/);
      return true;
    });
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.deepEqual(fetched, [], "no fetch was attempted");
  const { env } = await import("@huggingface/transformers");
  assert.equal(env.allowRemoteModels, false);
});

/** Mean of the token rows, then unit length: what mean pooling + normalisation must give. */
function expectedVector(tokens: string[]): number[] {
  const rows = tokens.map((t) => tinyEmbeddings[tinyVocabulary.indexOf(t)]);
  const mean = rows[0].map((_, d) => rows.reduce((s, r) => s + r[d], 0) / rows.length);
  const norm = Math.hypot(...mean);
  return mean.map((x) => x / norm);
}

test("a local model folder embeds end to end: tokenizer, ONNX, mean pooling, normalisation, no network", async () => {
  const dir = join(scratch, "tiny-model");
  writeTinyModel(dir);
  const realFetch = globalThis.fetch;
  const fetched: string[] = [];
  globalThis.fetch = (async (input: unknown) => {
    fetched.push(String(input));
    throw new Error("network is off in this test");
  }) as typeof fetch;
  try {
    const embedder = await transformersEmbedder({ modelDir: dir });
    assert.equal(embedder.name, "tiny-model (local ONNX, fp32, mean pooling)");
    assert.equal(embedder.dimensions, 4);
    assert.equal(embedder.maxInputTokens, 8, "model_max_length from tokenizer_config.json");
    const [cat, kitten] = await embedder.embed(["cat", "The kitten."]);
    // [CLS] cat [SEP] and [CLS] the kitten . [SEP], averaged by hand.
    expectedVector(["[CLS]", "cat", "[SEP]"]).forEach((x, d) => assert.ok(Math.abs(cat[d] - x) < 1e-6, `cat[${d}]`));
    expectedVector(["[CLS]", "the", "kitten", ".", "[SEP]"]).forEach((x, d) =>
      assert.ok(Math.abs(kitten[d] - x) < 1e-6, `kitten[${d}]`),
    );
    // 9 words + [CLS]/[SEP] = 11 tokens > 8: counted and truncated, never silently.
    const [long] = await embedder.embed([Array(9).fill("cat").join(" ")]);
    expectedVector(["[CLS]", "cat", "cat", "cat", "cat", "cat", "cat", "[SEP]"]).forEach((x, d) =>
      assert.ok(Math.abs(long[d] - x) < 1e-6, `long[${d}]`),
    );
    assert.deepEqual(embedder.inputs, { embedded: 3, overLimit: 1, truncated: 1, longestTokens: 11 });
    const strict = await transformersEmbedder({ modelDir: dir, overLimit: "reject" });
    await assert.rejects(strict.embed([Array(9).fill("cat").join(" ")]), /exceed its 8-token limit/);
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.deepEqual(fetched, [], "no fetch was attempted");
});

const modelDir = process.env.SEAMLAB_TEST_MODEL_DIR;
test(
  "a real local model embeds related sentences closer than unrelated ones",
  { skip: modelDir ? false : "SEAMLAB_TEST_MODEL_DIR is not set" },
  async () => {
    const embedder = await transformersEmbedder({ modelDir: modelDir! });
    const [cat, kitten, stocks] = await embedder.embed([
      "A cat sits on the mat.",
      "A kitten rests on a rug.",
      "Bond yields rose sharply.",
    ]);
    assert.ok(embedder.dimensions > 0);
    assert.ok(Math.abs(Math.hypot(...cat) - 1) < 1e-4, "vectors are normalised");
    assert.ok(cosine(cat, kitten) > cosine(cat, stocks));
    assert.equal(embedder.inputs.embedded, 3);
  },
);

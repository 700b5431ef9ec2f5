import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { SeamlabError } from "../../src/core/errors";
import { checkModelDir, transformersEmbedder } from "../../src/embed/transformers";
import { cosine } from "../../src/embed/types";

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
  const quantized = folder("quantized", { "config.json": "{}", "tokenizer.json": "{}", "onnx/model_quantized.onnx": "x" });
  assert.equal(checkModelDir(quantized).dtype, "q8");
});

test("loading never reaches for the network: remote models are off and an incomplete folder fails locally", async () => {
  // tokenizer_config.json is missing and the onnx file is junk: with remote loading allowed, transformers.js
  // would try to download the missing file from the hub.
  const dir = folder("incomplete", { "config.json": JSON.stringify({ model_type: "bert" }), "tokenizer.json": "{}", "onnx/model.onnx": "junk" });
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

const modelDir = process.env.SEAMLAB_TEST_MODEL_DIR;
test("a real local model embeds related sentences closer than unrelated ones", { skip: modelDir ? false : "SEAMLAB_TEST_MODEL_DIR is not set" }, async () => {
  const embedder = await transformersEmbedder({ modelDir: modelDir! });
  const [cat, kitten, stocks] = await embedder.embed(["A cat sits on the mat.", "A kitten rests on a rug.", "Bond yields rose sharply."]);
  assert.ok(embedder.dimensions > 0);
  assert.ok(Math.abs(Math.hypot(...cat) - 1) < 1e-4, "vectors are normalised");
  assert.ok(cosine(cat, kitten) > cosine(cat, stocks));
  assert.equal(embedder.inputs.embedded, 3);
});

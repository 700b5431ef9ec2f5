import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { SeamlabError } from "../core/errors";
import { applyInputLimit } from "./input-limit";
import { Embedder, emptyInputReport, OverLimitPolicy } from "./types";

export interface TransformersOptions {
  /** A local transformers.js model folder: config.json, tokenizer.json, onnx/model.onnx (or _quantized). */
  modelDir: string;
  /** As the model card prescribes: "mean" (all-MiniLM, e5, gte) or "cls" (bge). */
  pooling?: "mean" | "cls";
  batchSize?: number;
  overLimit?: OverLimitPolicy;
}

/** Which ONNX file transformers.js will load: fp32 model.onnx or q8 model_quantized.onnx, in `subfolder` or not. */
interface ModelFolder {
  dir: string;
  subfolder: string;
  dtype: "fp32" | "q8";
  config: Record<string, unknown>;
}

/** Checks a model folder before transformers.js sees it, so the message says what is missing and how to fix it. */
export function checkModelDir(modelDir: string): ModelFolder {
  const dir = resolve(modelDir);
  const fix =
    "Download a sentence-embedding model in transformers.js layout (e.g. onnx-community/all-MiniLM-L6-v2-ONNX: " +
    "config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx)" +
    " on a machine with access and copy the folder here.";
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SeamlabError(`--model-dir ${modelDir}: no such folder. ${fix}`);
  }
  for (const file of ["config.json", "tokenizer.json"]) {
    if (!existsSync(join(dir, file))) throw new SeamlabError(`--model-dir ${modelDir}: ${file} is missing. ${fix}`);
  }
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
  } catch (error) {
    throw new SeamlabError(`--model-dir ${modelDir}: config.json is not valid JSON (${(error as Error).message}).`);
  }
  for (const subfolder of ["onnx", ""]) {
    const folder = subfolder ? join(dir, subfolder) : dir;
    if (existsSync(join(folder, "model.onnx"))) return { dir, subfolder, dtype: "fp32", config };
    if (existsSync(join(folder, "model_quantized.onnx"))) return { dir, subfolder, dtype: "q8", config };
  }
  const onnxDir = join(dir, "onnx");
  const found = existsSync(onnxDir) ? readdirSync(onnxDir).filter((n) => n.endsWith(".onnx")) : [];
  throw new SeamlabError(
    `--model-dir ${modelDir}: no onnx/model.onnx or onnx/model_quantized.onnx` +
      (found.length > 0 ? ` (found ${found.join(", ")}; rename the one you want to model.onnx)` : "") +
      `. ${fix}`,
  );
}

interface FeatureExtractor {
  (texts: string[], options: { pooling: string; normalize: boolean }): Promise<{ data: Float32Array; dims: number[] }>;
  tokenizer: {
    model_max_length?: number;
    encode(text: string): number[];
    decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
  };
  dispose?: () => Promise<void>;
}

/** A local @huggingface/transformers model that can never download; imported lazily so nothing else pays its load. */
export async function transformersEmbedder(options: TransformersOptions): Promise<Embedder> {
  const folder = checkModelDir(options.modelDir);
  const pooling = options.pooling ?? "mean";
  const batchSize = options.batchSize ?? 32;
  const policy = options.overLimit ?? "truncate";
  const library = await import("@huggingface/transformers");
  const env = library.env;
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useFSCache = false;
  env.useBrowserCache = false;
  env.localModelPath = dirname(folder.dir) + sep;
  env.fetch = refuseNetwork;
  const modelId = basename(folder.dir);
  let extractor: FeatureExtractor;
  try {
    extractor = (await library.pipeline("feature-extraction", modelId, {
      local_files_only: true,
      dtype: folder.dtype,
      subfolder: folder.subfolder,
      device: "cpu",
    })) as unknown as FeatureExtractor;
  } catch (error) {
    throw new SeamlabError(
      `--model-dir ${options.modelDir}: transformers.js could not load the model: ${(error as Error).message}`,
    );
  }
  const fromTokenizer = extractor.tokenizer.model_max_length;
  const fromConfig = folder.config.max_position_embeddings;
  const maxInputTokens =
    typeof fromTokenizer === "number" && Number.isFinite(fromTokenizer) && fromTokenizer < 1e6
      ? fromTokenizer
      : typeof fromConfig === "number"
        ? fromConfig
        : 512;
  const dimensions = typeof folder.config.hidden_size === "number" ? folder.config.hidden_size : 0;
  const inputs = emptyInputReport();
  const name = `${modelId} (local ONNX, ${folder.dtype}, ${pooling} pooling)`;
  const embedder: Embedder = {
    name,
    id: `transformers:${modelId}:${folder.dtype}:${pooling}:${fingerprint(folder)}:limit=${maxInputTokens}:${policy}`,
    dimensions,
    maxInputTokens,
    inputs,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const measured = applyInputLimit(
        texts,
        maxInputTokens,
        {
          count: (text) => extractor.tokenizer.encode(text).length,
          // Keep room for the [CLS]/[SEP] pair the tokenizer adds back.
          truncate: (text, limit) =>
            extractor.tokenizer.decode(extractor.tokenizer.encode(text).slice(1, limit - 1), {
              skip_special_tokens: true,
            }),
        },
        policy,
        inputs,
        name,
      );
      const out: Float32Array[] = [];
      for (let from = 0; from < measured.length; from += batchSize) {
        const batch = measured.slice(from, from + batchSize);
        const tensor = await extractor(batch, { pooling, normalize: true });
        const width = tensor.dims[tensor.dims.length - 1];
        if (embedder.dimensions === 0) embedder.dimensions = width;
        for (let i = 0; i < batch.length; i++)
          out.push(Float32Array.from(tensor.data.subarray(i * width, (i + 1) * width)));
        inputs.embedded += batch.length;
      }
      return out;
    },
  };
  return embedder;
}

/** Any attempt to reach the network is a bug here, so it fails loudly. */
async function refuseNetwork(input: unknown): Promise<never> {
  throw new SeamlabError(
    `the transformers embedder never downloads, but was asked to fetch ` +
      `${String(input)}; use --model-dir with a complete local folder.`,
  );
}

/** Size + mtime of the model file: a replaced model gets a new cache identity. */
function fingerprint(folder: ModelFolder): string {
  const file = join(folder.dir, folder.subfolder, folder.dtype === "fp32" ? "model.onnx" : "model_quantized.onnx");
  const stat = statSync(file);
  return `${stat.size}-${Math.round(stat.mtimeMs)}`;
}

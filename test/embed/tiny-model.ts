/**
 * Writes a tiny sentence-embedding model folder in transformers.js layout, so the `transformers` embedder can be
 * tested end to end with no download: a BERT WordPiece tokenizer over a 12-word vocabulary and an ONNX graph whose
 * only node is Gather(embeddings, input_ids) → last_hidden_state. Mean pooling of its output is then the plain
 * average of the token rows below, which a test can compute by hand.
 *
 * The ONNX file is protobuf written field by field (onnx.proto field numbers), since no ONNX writer is installed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const tinyVocabulary = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "[MASK]",
  "cat",
  "kitten",
  "bond",
  "yields",
  "the",
  "a",
  ".",
];

/** One row per vocabulary entry: cat/kitten point one way, bond/yields another, the rest are small. */
export const tinyEmbeddings: number[][] = [
  [0, 0, 0, 0], // [PAD]
  [0, 0, 0, 1], // [UNK]
  [0, 0, 0.1, 0], // [CLS]
  [0, 0, 0.1, 0], // [SEP]
  [0, 0, 0, 0], // [MASK]
  [1, 0, 0, 0], // cat
  [0.9, 0.1, 0, 0], // kitten
  [0, 1, 0, 0], // bond
  [0.1, 0.9, 0, 0], // yields
  [0, 0, 0.3, 0], // the
  [0, 0, 0.3, 0], // a
  [0, 0, 0.2, 0.1], // .
];

// --- protobuf wire format -------------------------------------------------------------------------------------
function varint(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, value: number) => [...key(field, 0), ...varint(value)];
const bytes = (field: number, payload: number[] | Uint8Array) => [
  ...key(field, 2),
  ...varint(payload.length),
  ...payload,
];
const str = (field: number, text: string) => bytes(field, [...Buffer.from(text, "utf8")]);

function tensorType(elemType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => bytes(1, typeof d === "number" ? int(1, d) : str(2, d))); // Dimension
  return bytes(1, [...int(1, elemType), ...bytes(2, shape)]); // TypeProto.tensor_type { elem_type, shape }
}
const valueInfo = (name: string, elemType: number, dims: (number | string)[]) => [
  ...str(1, name),
  ...bytes(2, tensorType(elemType, dims)),
];

function tinyOnnx(): Uint8Array {
  const FLOAT = 1;
  const INT64 = 7;
  const rows = tinyEmbeddings.length;
  const width = tinyEmbeddings[0].length;
  const raw = Buffer.alloc(rows * width * 4);
  tinyEmbeddings.flat().forEach((x, i) => raw.writeFloatLE(x, i * 4));
  const initializer = [...int(1, rows), ...int(1, width), ...int(2, FLOAT), ...str(8, "embeddings"), ...bytes(9, raw)];
  const node = [
    ...str(1, "embeddings"),
    ...str(1, "input_ids"),
    ...str(2, "last_hidden_state"),
    ...str(3, "lookup"),
    ...str(4, "Gather"),
  ];
  const graph = [
    ...bytes(1, node),
    ...str(2, "tiny"),
    ...bytes(5, initializer),
    ...bytes(11, valueInfo("input_ids", INT64, ["batch", "sequence"])),
    ...bytes(12, valueInfo("last_hidden_state", FLOAT, ["batch", "sequence", width])),
  ];
  const model = [
    ...int(1, 8),
    ...str(2, "seamlab-test"),
    ...bytes(7, graph),
    ...bytes(8, [...str(1, ""), ...int(2, 13)]),
  ];
  return Uint8Array.from(model);
}

export function writeTinyModel(dir: string): void {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const vocab = Object.fromEntries(tinyVocabulary.map((token, id) => [token, id]));
  const special = (content: string) => ({
    id: vocab[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tokenizer = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map(special),
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [vocab["[CLS]"]], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [vocab["[SEP]"]], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab,
    },
  };
  writeFileSync(join(dir, "tokenizer.json"), JSON.stringify(tokenizer));
  writeFileSync(
    join(dir, "tokenizer_config.json"),
    JSON.stringify({
      tokenizer_class: "BertTokenizer",
      do_lower_case: true,
      model_max_length: 8,
      cls_token: "[CLS]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      unk_token: "[UNK]",
      mask_token: "[MASK]",
    }),
  );
  writeFileSync(
    join(dir, "config.json"),
    JSON.stringify({
      model_type: "bert",
      architectures: ["BertModel"],
      hidden_size: tinyEmbeddings[0].length,
      max_position_embeddings: 8,
      vocab_size: tinyVocabulary.length,
    }),
  );
  writeFileSync(join(dir, "onnx", "model.onnx"), tinyOnnx());
}

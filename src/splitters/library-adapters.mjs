// The real chunking libraries behind seamlab's library splitters, one async function per splitter:
// `(text, { size, overlap, unit, encoding }) => { texts, anchors? }` (see library-bridge.ts LibraryTexts). Run in
// a worker by `library-worker.mjs`; bench:splitters calls them in-process. Nothing here downloads: tokens come from
// js-tiktoken's bundled ranks, injected where a library would fetch its own (LangChain's, chonkie's named ones).
const encoders = new Map();
async function tiktoken(name) {
  let enc = encoders.get(name);
  if (!enc) {
    const { getEncoding } = await import("js-tiktoken");
    enc = getEncoding(name);
    encoders.set(name, enc);
  }
  return enc;
}

/**
 * js-tiktoken's `encode(text, [], [])`, each pre-tokenisation piece memoised (libraries measure the same pieces over
 * and over) when the encoding's regex matches it whole alone, so the tokens are encode()'s (as src/text/tokens.ts).
 */
const memoisedEncoders = new WeakMap();
/**
 * @param {{ encode(text: string, allowed: string[], disallowed: string[]): number[] }} enc
 * @returns {(text: string) => number[]}
 */
export function memoisedEncode(enc) {
  let encode = memoisedEncoders.get(enc);
  if (encode) return encode;
  encode = (text) => enc.encode(text, [], []);
  if (typeof enc.patStr === "string") {
    const pieces = new RegExp(enc.patStr, "ug");
    const alone = new RegExp(enc.patStr, "uy");
    const memo = new Map();
    encode = (text) => {
      const out = [];
      for (const match of text.matchAll(pieces)) {
        const piece = match[0];
        let tokens = memo.get(piece);
        if (!tokens) {
          alone.lastIndex = 0;
          const whole = alone.exec(piece);
          if (!whole || whole[0] !== piece) return enc.encode(text, [], []);
          tokens = enc.encode(piece, [], []);
          if (memo.size >= 200_000) memo.clear();
          memo.set(piece, tokens);
        }
        for (let i = 0; i < tokens.length; i++) out.push(tokens[i]);
      }
      return out;
    };
  }
  memoisedEncoders.set(enc, encode);
  return encode;
}

/**
 * The user's unit as a length function (library-worker.mjs's LangChain recursive splitter uses it too).
 * @param {{ unit: "chars" | "tokens", encoding: string }} o
 * @returns {Promise<(text: string) => number>}
 */
export async function lengthFunction(o) {
  if (o.unit !== "tokens") return (text) => text.length;
  const encode = memoisedEncode(await tiktoken(o.encoding));
  return (text) => (text.length === 0 ? 0 : encode(text).length);
}

/** A LlamaIndex tokenizer counting the user's unit: UTF-16 code units or js-tiktoken tokens. */
async function llamaTokenizer(o) {
  if (o.unit !== "tokens") {
    return {
      encode: (text) => {
        const out = new Uint32Array(text.length);
        for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
        return out;
      },
      decode: (tokens) => String.fromCharCode(...tokens),
    };
  }
  const enc = await tiktoken(o.encoding);
  const encode = memoisedEncode(enc);
  return {
    encode: (text) => Uint32Array.from(encode(text)),
    decode: (tokens) => enc.decode(Array.from(tokens)),
  };
}

/** A chonkie tokenizer (duck-typed) over js-tiktoken, for token units. */
async function chonkieTokenizer(o) {
  if (o.unit !== "tokens") return "character";
  const enc = await tiktoken(o.encoding);
  const encode = memoisedEncode(enc);
  const decode = (tokens) => enc.decode(Array.from(tokens));
  return {
    countTokens: (text) => (text.length === 0 ? 0 : encode(text).length),
    encode,
    decode,
    decodeBatch: (batch) => batch.map(decode),
  };
}

async function mastraChunk(strategy, text, o) {
  const { MDocument } = await import("@mastra/rag");
  const params = { strategy, maxSize: o.size, overlap: o.overlap };
  if (strategy === "token") params.encodingName = o.encoding;
  else if (o.unit === "tokens") params.lengthFunction = await lengthFunction(o);
  const chunks = await MDocument.fromText(text).chunk(params);
  return { texts: chunks.map((c) => c.text) };
}

/** The recursive chunker takes no overlap. */
async function chonkieChunk(chunkerName, text, o) {
  const chonkie = await import("@chonkiejs/core");
  const options = { chunkSize: o.size, tokenizer: await chonkieTokenizer(o) };
  if (chunkerName !== "RecursiveChunker") options.chunkOverlap = o.overlap;
  const chunker = await chonkie[chunkerName].create(options);
  return { texts: (await chunker.chunk(text)).map((c) => c.text) };
}

async function llamaSplit(className, text, o) {
  const parsers = await import("@llamaindex/core/node-parser");
  const options = { chunkSize: o.size, chunkOverlap: o.overlap, tokenizer: await llamaTokenizer(o) };
  return { texts: new parsers[className](options).splitText(text) };
}

/**
 * One function per library splitter name.
 * @type {Record<string, (text: string, options: import("./library-bridge").LibraryOptions) =>
 *   Promise<import("./library-bridge").LibraryTexts>>}
 */
export const adapters = {
  "llamaindex-sentence": (text, o) => llamaSplit("SentenceSplitter", text, o),
  "llamaindex-token": (text, o) => llamaSplit("TokenTextSplitter", text, o),
  async "llamaindex-markdown"(text) {
    const { MarkdownNodeParser } = await import("@llamaindex/core/node-parser");
    const { Document, MetadataMode } = await import("@llamaindex/core/schema");
    const nodes = new MarkdownNodeParser().getNodesFromDocuments([new Document({ text })]);
    return {
      texts: nodes.map((n) => n.getContent(MetadataMode.EMBED)),
      anchors: nodes.map((n) => n.getContent(MetadataMode.NONE)),
    };
  },
  "mastra-recursive": (text, o) => mastraChunk("recursive", text, o),
  "mastra-character": (text, o) => mastraChunk("character", text, o),
  "mastra-token": (text, o) => mastraChunk("token", text, o),
  "mastra-markdown": (text, o) => mastraChunk("markdown", text, o),
  "mastra-sentence": (text, o) => mastraChunk("sentence", text, o),
  "chonkie-recursive": (text, o) => chonkieChunk("RecursiveChunker", text, o),
  "chonkie-sentence": (text, o) => chonkieChunk("SentenceChunker", text, o),
  "chonkie-token": (text, o) => chonkieChunk("TokenChunker", text, o),
  async "langchain-character"(text, o) {
    const { CharacterTextSplitter } = await import("@langchain/textsplitters");
    const splitter = new CharacterTextSplitter({
      chunkSize: o.size,
      chunkOverlap: o.overlap,
      lengthFunction: await lengthFunction(o),
    });
    return { texts: await splitter.splitText(text) };
  },
  async "langchain-token"(text, o) {
    const { TokenTextSplitter } = await import("@langchain/textsplitters");
    const splitter = new TokenTextSplitter({ chunkSize: o.size, chunkOverlap: o.overlap, encodingName: o.encoding });
    // Injected: LangChain's own getEncoding downloads the ranks.
    splitter.tokenizer = await tiktoken(o.encoding);
    return { texts: await splitter.splitText(text) };
  },
};

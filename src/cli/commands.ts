/** The `seamlab` sub-commands: each one's line for --help, and its module, loaded only when it runs. */
interface Command {
  summary: string;
  load: () => Promise<{ run(argv: string[]): Promise<number> }>;
}

// In the order a user meets them: what the splitter does to the text, then retrieval, sweeps, vectors, the report.
export const commands: Record<string, Command> = {
  seams: {
    summary: "Real overlap per seam, zero-overlap share, lost text and seam damage of one splitter config.",
    load: () => import("./seams"),
  },
  pairs: {
    summary: "Seam damage: share of sentence pairs across paragraph breaks kept together in one chunk.",
    load: () => import("./pairs"),
  },
  "compare-splitters": {
    summary: "Several splitter configs side by side: zero-overlap seams, real overlap, seam damage, index size.",
    load: () => import("./compare-splitters"),
  },
  libraries: {
    summary:
      "Every chunking library's splitter (LlamaIndex, Mastra, chonkie, " +
      "LangChain) on one corpus: configured vs realised overlap.",
    load: () => import("./libraries"),
  },
  types: {
    summary: "The corpus by document and section type (reference, FAQ, prose, transcript, code, table).",
    load: () => import("./types"),
  },
  queries: {
    summary:
      "Write a query set to a labelled file: ICT or header queries from a corpus, or questions from an LLM endpoint.",
    load: () => import("./queries"),
  },
  retrieve: {
    summary:
      "Retrieval quality of one splitter config: hit rate@k, distinct passages, span recall/IoU (BM25 by default).",
    load: () => import("./retrieve"),
  },
  compare: {
    summary:
      "Paired comparison of two splitter configs on the same queries: " +
      "wins/losses, exact McNemar p, CI of the hit-rate difference.",
    load: () => import("./compare"),
  },
  sweep: {
    summary:
      "Overlap sweep (x first-stage depth with a reranker): recall " +
      "vs overlap, cost, and the knee (Kneedle + plateau rule).",
    load: () => import("./sweep"),
  },
  check: {
    summary: "Re-run an exported choice (sweep --export) on the corpus as it is now; exit 3 when it moved.",
    load: () => import("./check"),
  },
  proxies: {
    summary: "Check header and ICT queries against your labelled questions: which proxy sets the overlap.",
    load: () => import("./proxies"),
  },
  flips: {
    summary: "The queries config B wins and loses against config A, with the gold span, seams and top-k.",
    load: () => import("./flips"),
  },
  embed: {
    summary: "Embed one config's chunks: embedder, over-limit inputs, cache hits, neighbour cosine vs real overlap.",
    load: () => import("./embed"),
  },
  report: {
    summary: "Run the notebooks on a corpus (parameter injection) and render the static HTML report.",
    load: () => import("./report"),
  },
};

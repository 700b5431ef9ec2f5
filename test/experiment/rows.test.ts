import { test } from "node:test";
import assert from "node:assert/strict";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { createRetriever } from "../../src/retrieval/factory";
import { evaluateQueries } from "../../src/retrieval/evaluate";
import { splitCorpus } from "../../src/splitters/registry";
import { computeTaskRows } from "../../src/experiment/rows";
import { normalizeConfig, type ExperimentConfig } from "../../src/experiment/grid";
import type { Retriever } from "../../src/retrieval/types";
import { fastifyGuides } from "../helpers/corpora";

const set = buildHeaderQueries(loadCorpus(fastifyGuides).docs);
const inputs = { docs: set.docs, queries: set.queries };
const splitter = { splitter: "recursive", size: 600, overlap: 100 };
const lsa = { kind: "lsa", dimensions: 32 };
const keys = (configs: readonly unknown[]) => configs.map((_, i) => `key-${i}`);
const withoutKey = (row: object) => ({ ...row, key: undefined });

test("a dense first stage scored in batches (searchMany) gives the hits of one query at a time", async () => {
  const config = normalizeConfig({
    splitter,
    retrieval: { k: 5, retriever: "dense", retrieverSettings: { embedder: lsa } },
  });
  const [row] = await computeTaskRows(inputs, [config], ["key"]);
  const chunks = splitCorpus(inputs.docs, splitter);
  const dense = await createRetriever("dense", chunks, { embedder: lsa });
  assert.ok(dense.searchMany, "the dense retriever has a batch search, so the row went through it");
  const oneByOne: Retriever = { name: dense.name, search: (query, k) => dense.search(query, k) };
  const outcomes = await evaluateQueries(chunks, inputs.queries, oneByOne, { k: 5 });
  assert.equal(row.hits, outcomes.map((o) => (o.hit ? "1" : "0")).join(""));
  assert.ok(row.hits.includes("1") && row.hits.includes("0"), row.hits);
});

test("depths sharing one reranker (one lsa fit per chunk array) give the rows each depth gives alone", async () => {
  const configs: ExperimentConfig[] = [5, 10, 20].flatMap((depth) =>
    ["dense", "mmr"].map((reranker) =>
      normalizeConfig({
        splitter,
        retrieval: { k: depth, finalK: 5, reranker, rerankerOptions: reranker === "dense" ? lsa : { lambda: 0.5 } },
      }),
    ),
  );
  const together = await computeTaskRows(inputs, configs, keys(configs));
  for (const [i, config] of configs.entries()) {
    const [alone] = await computeTaskRows(inputs, [config], [`key-${i}`]);
    assert.deepEqual(withoutKey(together[i]), withoutKey(alone), together[i].label);
  }
  const dense = together.filter((row) => row.config.retrieval.reranker === "dense");
  assert.notEqual(dense[0].hits, dense[2].hits, "depth 5 and depth 20 rerank different candidate lists");
});

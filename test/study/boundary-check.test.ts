import { test } from "node:test";
import assert from "node:assert/strict";
import { boundaryAdvice, boundaryVersus, runBoundaryCheck, type BoundaryCheck } from "../../src/study/boundary-check";
import { pairedComparison } from "../../src/stats/paired";
import { loadCorpus } from "../../src/corpus/load";
import { buildHeaderQueries } from "../../src/retrieval/header-queries";
import { fastifyGuides } from "../helpers/corpora";

/** Per-query hits of two configs: `both` hit by both, then `aOnly` by A, `bOnly` by B, `none` by neither. */
function hits(both: number, aOnly: number, bOnly: number, none: number): [boolean[], boolean[]] {
  const a = [...Array(both + aOnly).fill(true), ...Array(bOnly + none).fill(false)];
  const b = [
    ...Array(both).fill(true),
    ...Array(aOnly).fill(false),
    ...Array(bOnly).fill(true),
    ...Array(none).fill(false),
  ];
  return [a, b];
}

const check = (other: string, a: boolean[], b: boolean[]): BoundaryCheck => ({
  size: 1000,
  overlap: 200,
  k: 5,
  versus: [boundaryVersus(other, pairedComparison(a, b), [1.1, 1.2])],
});

test("the advice to fix boundaries is withheld when structure retrieves worse on the same queries", () => {
  // structure hits 60 queries langchain misses, but misses 120 it hits: worse, and McNemar says so
  const [a, b] = hits(500, 60, 120, 320);
  const text = boundaryAdvice(check("langchain", a, b));
  assert.doesNotMatch(text, /Fix boundaries before buying overlap/);
  assert.match(text, /Do not switch splitters/);
  assert.match(text, /retrieves worse than `langchain`/);
  assert.match(text, /−6\.0 points \[/, "the paired difference is stated");
  assert.match(text, /60 queries won and 120 lost, McNemar p < 0\.001/);
  assert.match(text, /the same 1,000 queries/);
});

test("the advice is given, with the paired numbers, when structure is not shown worse", () => {
  const [a, b] = hits(500, 50, 55, 395); // 5 fewer of 105 discordant: not shown
  const result = check("langchain", a, b);
  assert.equal(result.versus[0].shown, null);
  const text = boundaryAdvice(result);
  assert.match(text, /Fix boundaries before buying overlap/);
  assert.match(text, /not shown worse at retrieval than any splitter/);
  assert.match(text, /vs `langchain`: −0\.5 points/);
  assert.match(text, /index 1\.10x against 1\.20x the corpus/);
});

test("with no other splitter beside structure the advice says the check was not run", () => {
  const text = boundaryAdvice({ size: 1000, overlap: 200, k: 5, versus: [] });
  assert.doesNotMatch(text, /Fix boundaries before buying overlap/);
  assert.match(text, /not measured/);
});

test("runBoundaryCheck compares structure with each other splitter on the same queries", async () => {
  const docs = loadCorpus(fastifyGuides).docs.slice(0, 6);
  const set = buildHeaderQueries(docs);
  const result = await runBoundaryCheck({ sweepDocs: set.docs, queries: set.queries }, ["langchain", "structure"], {
    size: 800,
    overlap: 100,
    k: 5,
  });
  assert.deepEqual(
    result.versus.map((v) => v.other),
    ["langchain"],
  );
  const c = result.versus[0].comparison;
  assert.equal(c.queries, set.queries.length);
  assert.equal(c.wins + c.losses + c.ties, c.queries);
  assert.ok(result.versus[0].structureIndexRatio > 0);
});

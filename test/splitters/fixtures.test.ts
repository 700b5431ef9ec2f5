// Splitter span fixtures, as markdown-it keeps its: test/fixtures/splitters/<splitter>.txt hold input documents
// and the exact spans each config must give. Every expected value comes from outside seamlab's code: worked out by
// hand (the working is in the case's `from:` line), or checked here against the real LangChain package or against
// js-tiktoken's own token windows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import type { SplitterConfig } from "../../src/splitters/config";
import { stopLibraryBridge } from "../../src/splitters/library-bridge";
import { splitDoc } from "../../src/splitters/registry";
import { getEncoding } from "../../src/text/tokens";

const folder = fileURLToPath(new URL("../fixtures/splitters/", import.meta.url));

interface FixtureCase {
  where: string;
  title: string;
  config: SplitterConfig;
  from: string;
  input: string;
  expected: [number, number, string][];
}

/** Parses a fixture file (format in its header); a malformed case throws naming the file and line. */
function parseFixtures(path: string): FixtureCase[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const cases: FixtureCase[] = [];
  let i = 0;
  const fail = (message: string): never => {
    throw new Error(`${path}:${i + 1}: ${message}`);
  };
  const field = (name: string) => {
    const line = lines[i++] ?? "";
    if (!line.startsWith(`${name}: `)) fail(`expected "${name}: ..."`);
    return line.slice(name.length + 2);
  };
  const until = (what: string) => {
    const start = i;
    while (i < lines.length && lines[i] !== ".") i++;
    if (i >= lines.length) fail(`${what} has no closing "." line`);
    return lines.slice(start, i++);
  };
  while (i < lines.length) {
    if (!lines[i].startsWith("# ")) {
      i++;
      continue;
    }
    const where = `${path}:${i + 1}`;
    const title = lines[i++].slice(2);
    const config = JSON.parse(field("config")) as SplitterConfig;
    const from = field("from");
    if (lines[i++] !== ".") fail('expected "." before the input');
    const input = until("the input").join("\n");
    const expected = until("the expected spans").map((line) => {
      const match = /^(\d+) (\d+) (".*")$/.exec(line);
      if (!match) throw new Error(`${where}: not a "start end \\"text\\"" line: ${line}`);
      return [Number(match[1]), Number(match[2]), JSON.parse(match[3]) as string] as [number, number, string];
    });
    cases.push({ where, title, config, from, input, expected });
  }
  return cases;
}

const files = readdirSync(folder)
  .filter((name) => name.endsWith(".txt"))
  .sort();

test("every splitter fixture file holds at least one case", () => {
  assert.ok(files.length >= 5, files.join(", "));
  for (const name of files) assert.ok(parseFixtures(join(folder, name)).length > 0, name);
});

for (const name of files) {
  for (const fixture of parseFixtures(join(folder, name))) {
    test(`${fixture.config.splitter} ${fixture.config.size}/${fixture.config.overlap}: ${fixture.title}`, async () => {
      const { input, expected, config } = fixture;
      // The fixture is consistent with itself: each expected text is the input at its span.
      for (const [start, end, text] of expected) assert.equal(input.slice(start, end), text, `${fixture.where}`);
      if (fixture.from === "langchain") {
        // The independent source: the real LangChain package's own texts for the same input and sizes.
        const splitter = new RecursiveCharacterTextSplitter({ chunkSize: config.size, chunkOverlap: config.overlap });
        assert.deepEqual(
          expected.map(([, , text]) => text),
          await splitter.splitText(input),
          `${fixture.where}: LangChain`,
        );
      } else if (fixture.from === "tiktoken") {
        // The independent source: js-tiktoken's token list, windowed and decoded.
        const encoder = getEncoding(config.encoding);
        const tokens = encoder.encode(input, [], []);
        const step = config.size - config.overlap;
        const windows = expected.map((_, w) => encoder.decode(tokens.slice(w * step, w * step + config.size)));
        assert.deepEqual(
          expected.map(([, , text]) => text),
          windows,
          `${fixture.where}: js-tiktoken`,
        );
        assert.ok((expected.length - 1) * step + config.size >= tokens.length, "the windows cover every token");
      } else {
        assert.match(fixture.from, /^hand: \S/, `${fixture.where}: say where the expected spans come from`);
      }
      const actual = splitDoc({ id: "fixture", text: input }, config).map((c) => [c.start, c.end, c.text]);
      assert.deepEqual(actual, expected, fixture.where);
    });
  }
}

test.after(() => stopLibraryBridge());

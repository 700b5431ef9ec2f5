import { test } from "node:test";
import assert from "node:assert/strict";
import { SeamlabError } from "../../src/core/errors";
import { checkSettingsReachNotebooks, reportSettingsFrom } from "../../src/cli/report-settings";
import { declaredParameters, declaredSettings, type Notebook } from "../../src/report/nbformat";
import { seamlab } from "./spawn-cli";

const notebook = (parameters: string): Notebook =>
  ({
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {},
    cells: [
      { cell_type: "markdown", source: "# title", metadata: {} },
      { cell_type: "code", source: parameters, metadata: { tags: ["parameters"] }, outputs: [], execution_count: null },
    ],
  }) as unknown as Notebook;

test("report settings become notebook parameters: margin in points becomes a proportion, sizes set size too", () => {
  const settings = reportSettingsFrom({
    splitter: "recursive",
    sizes: "500,1000,2000",
    overlaps: "200,0,100",
    k: "10",
    margin: "0.5",
    "heading-levels": "3,2",
    "context-budget": "5000",
  });
  assert.deepEqual(settings, {
    splitter: "recursive",
    sizes: [500, 1000, 2000],
    size: 500,
    overlaps: [0, 100, 200],
    k: 10,
    margin: 0.005,
    headingLevels: [2, 3],
    contextBudget: "5000",
  });
  assert.deepEqual(reportSettingsFrom({}), {});
});

test("bad report settings are refused naming the flag: an overlap at the size, an unknown splitter, a budget below one chunk", () => {
  assert.throws(
    () => reportSettingsFrom({ size: "500", overlaps: "0,500" }),
    /--overlaps 500: an overlap must be below/,
  );
  assert.throws(() => reportSettingsFrom({ overlaps: "0,1000" }), /--overlaps 1000/);
  assert.throws(() => reportSettingsFrom({ splitter: "nope" }), SeamlabError);
  assert.throws(
    () => reportSettingsFrom({ sizes: "500,2000", "context-budget": "1000" }),
    /below one chunk of the largest size, 2000/,
  );
  assert.throws(() => reportSettingsFrom({ margin: "0" }), /--margin/);
  assert.throws(() => reportSettingsFrom({ "context-budget": "1500" }), /largest size, 2000/, "notebook 03's sizes");
  assert.throws(() => reportSettingsFrom({ "context-budget": "off" }), /always made at an equal budget/);
  assert.equal(reportSettingsFrom({ "context-budget": "1200t" }).contextBudget, "1200t");
  assert.throws(() => reportSettingsFrom({ "heading-levels": "2,7" }), /--heading-levels/);
  assert.throws(() => reportSettingsFrom({ size: "500", sizes: "500,1000" }), /--size and --sizes/);
});

test("a setting reaches only the notebooks whose parameters cell declares it", () => {
  const sweep = notebook('const corpus = "x";\nconst size = 1000;\nlet overlaps = [0, 100];\nconst margin = 0.01;');
  const seams = notebook('const corpus = "x";\nconst size = 1000;');
  assert.deepEqual(declaredParameters(sweep), ["corpus", "size", "overlaps", "margin"]);
  const settings = { size: 500, overlaps: [0, 50], margin: 0.005 };
  assert.deepEqual(declaredSettings(sweep, settings), settings);
  assert.deepEqual(declaredSettings(seams, settings), { size: 500 });
  const declared = new Map([
    ["01", declaredParameters(seams)],
    ["03", declaredParameters(sweep)],
  ]);
  checkSettingsReachNotebooks(settings, declared);
  assert.throws(
    () => checkSettingsReachNotebooks({ margin: 0.005 }, new Map([["01", declaredParameters(seams)]])),
    /--margin: no notebook in this run takes it \(run: 01\)/,
  );
});

test("seamlab report refuses a bad setting before any kernel starts", () => {
  const result = seamlab(["report", "--corpus", "fastify-docs", "--overlaps", "0,2000", "--out", "/nonexistent-dir/x"]);
  assert.equal(result.status, 2, "bad input exits 2");
  assert.match(result.stderr, /--overlaps 2000/);
  assert.doesNotMatch(result.stderr, /running|at .*\.ts:\d+/);
});

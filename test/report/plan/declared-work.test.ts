// What each notebook declares `--budget` may do with it (`metadata.seamlab.work`) agrees with the notebook itself: its
// sections are the cells it tags `budget:<section>`, its counts and levels are read from its parameters cell, and a
// declaration that names what the notebook does not have is refused naming the notebook.
import { test } from "node:test";
import assert from "node:assert/strict";
import { basename } from "node:path";
import { SeamlabError } from "../../../src/core/errors";
import {
  cellTags,
  declaredParameters,
  parameterValues,
  readNotebook,
  type Notebook,
} from "../../../src/report/nbformat";
import { declaredWork, spacedSubset, workMetadata, type WorkMetadata } from "../../../src/report/plan/declared-work";
import { declared, notebookPaths } from "../../helpers/declared-work";

const notebooks = notebookPaths.map((path) => ({ path, prefix: basename(path).slice(0, 2), nb: readNotebook(path) }));

test("a sweep with fewer points keeps both ends and spaces the rest", () => {
  assert.deepEqual(spacedSubset([0, 50, 100, 150, 200, 300, 400, 500], 3), [0, 200, 500]);
  assert.deepEqual(spacedSubset([0, 50, 100, 150, 200, 300, 400, 500], 4), [0, 100, 300, 500]);
  assert.deepEqual(spacedSubset([0, 100, 200, 300, 500], 2), [0, 500]);
  assert.deepEqual(spacedSubset([1, 2], 5), [1, 2]);
});

test("every notebook declares its work, and its sections are exactly the cells it tags budget:<section>", () => {
  for (const { prefix, nb } of notebooks) {
    const meta = workMetadata(nb);
    assert.ok(meta, `${prefix}: no metadata.seamlab.work`);
    const tagged = new Set(
      nb.cells.flatMap((cell) =>
        cellTags(cell)
          .filter((t) => t.startsWith("budget:"))
          .map((t) => t.slice(7)),
      ),
    );
    assert.deepEqual(Object.keys(meta.sections ?? {}).sort(), [...tagged].sort(), `${prefix}: sections vs tags`);
    for (const [section, s] of Object.entries(meta.sections ?? {}))
      assert.ok(s.name.length > 0, `${prefix}: section ${section} has a name for the page`);
  }
});

test("every declaration resolves against its notebook's parameters cell: each level injects only what it declares", () => {
  for (const { path, prefix, nb } of notebooks) {
    const work = declaredWork(nb, path)!; // throws, naming the notebook, on a parameter the cell does not have
    const names = new Set(declaredParameters(nb));
    const values = parameterValues(nb);
    for (const [i, level] of work.levels.entries())
      for (const [name, value] of Object.entries(level.parameters)) {
        assert.ok(names.has(name), `${prefix} level ${i}: ${name} is not in the parameters cell`);
        // a list stays a list of the notebook's own values; a literal keeps the type of the notebook's default
        if (Array.isArray(values[name]))
          for (const v of value as unknown[])
            assert.ok(
              (values[name] as unknown[]).some((d) => JSON.stringify(d) === JSON.stringify(v)),
              `${prefix} level ${i}: ${name} holds ${JSON.stringify(v)}, not one of its own`,
            );
        else if (name !== "documentChars") assert.equal(typeof value, typeof values[name], `${prefix}: ${name}`);
      }
    // the document pilot times the notebook's own sampled cells, at its own parameters
    if (work.pilot) {
      const { kind, ...args } = work.pilot;
      for (const [name, value] of Object.entries(args)) assert.deepEqual(value, values[name], `${prefix} ${kind}`);
    }
  }
});

test("a reducible notebook's first level is its full work (it injects nothing), and each later one does less", () => {
  const reducible = Object.entries(declared).filter(([, w]) => w.levels.length > 0);
  assert.deepEqual(
    reducible.map(([p]) => p),
    ["03", "04", "05", "06", "07"],
  );
  for (const [prefix, { levels }] of reducible) {
    assert.deepEqual(levels[0].parameters, {}, `${prefix}: the full level injects nothing`);
    assert.deepEqual(levels[0].skip, [], `${prefix}: the full level leaves nothing out`);
    assert.ok(levels[0].splits > 0 && levels[0].configs > 0, prefix);
    // no more of either, less of one (a level reading a document sample costs its share of the corpus instead)
    for (let i = 1; i < levels.length; i++) {
      const [a, b] = [levels[i - 1], levels[i]];
      if (b.documentChars !== undefined) continue;
      assert.ok(b.splits <= a.splits && b.configs <= a.configs, `${prefix} level ${i}`);
      assert.ok(b.splits < a.splits || b.configs < a.configs, `${prefix} level ${i}`);
    }
  }
  // priorities are distinct, so the order in which notebooks keep their work is the notebooks' own
  const priorities = Object.values(declared).map((w) => w.priority);
  assert.equal(new Set(priorities).size, priorities.length);
});

/** A notebook whose parameters cell holds `parameters` and whose metadata declares `work`. */
function notebookWith(parameters: string, work: WorkMetadata): Notebook {
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: { seamlab: { work } },
    cells: [
      { cell_type: "code", source: parameters, metadata: { tags: ["parameters"] }, outputs: [], execution_count: null },
      {
        cell_type: "code",
        source: "dense();",
        metadata: { tags: ["budget:dense"] },
        outputs: [],
        execution_count: null,
      },
    ],
  };
}

const sweep: WorkMetadata = {
  priority: 1,
  memory: { bytesPerChar: 2 },
  sections: { dense: { name: "the dense sweep", extraBytesPerChar: 3 } },
  splits: [{ of: ["splitters", "overlaps"] }, { section: "dense", n: 2, of: ["overlaps"] }],
  configs: [{ of: ["splitters", "overlaps"] }, { of: ["splitters"], against: "structure" }],
  levels: [
    { ran: "overlaps {overlaps}" },
    {
      parameters: { overlaps: { spaced: 2 }, splitters: { last: 1 } },
      skip: ["dense"],
      ran: "overlaps {overlaps} ({overlaps.count} of {overlaps.all.count}; of {overlaps.all}) by {splitters}",
    },
  ],
};

test("counts and levels follow the parameters cell: change a list there and the plan changes with it", () => {
  const parameters = (overlaps: string) =>
    `const overlaps = ${overlaps}; // the grid\nconst splitters = ["window", "structure"];\nconst size = 1000;\n`;
  const five = declaredWork(notebookWith(parameters("[0, 50, 100, 200, 400]"), sweep), "five.ipynb")!;
  // 2 splitters × 5 overlaps + 2 × 5 dense; queries 2 × 5 + window against structure (2)
  assert.deepEqual([five.levels[0].splits, five.levels[0].configs], [20, 12]);
  assert.equal(five.levels[0].extraBytesPerChar, 3);
  assert.deepEqual(five.levels[1].parameters, { overlaps: [0, 400], splitters: ["structure"] });
  // structure alone is checked against nothing
  assert.deepEqual([five.levels[1].splits, five.levels[1].configs], [2, 2]);
  assert.equal(
    five.levels[1].ran,
    "overlaps 0, 400 (2 of 5; of 0, 50, 100, 200, 400) by structure; left out: the dense sweep",
  );
  assert.equal(five.levels[1].extraBytesPerChar, undefined);
  const three = declaredWork(notebookWith(parameters("[0, 100, 200]"), sweep), "three.ipynb")!;
  assert.deepEqual([three.levels[0].splits, three.levels[0].configs], [12, 8]);
  assert.equal(three.levels[1].ran, "overlaps 0, 200 (2 of 3; of 0, 100, 200) by structure; left out: the dense sweep");
});

test("a declaration naming what the notebook does not have is refused, naming the notebook and what is wrong", () => {
  const cell = `const overlaps = [0, 100];\nconst splitters = ["window"];\n`;
  const refused = (work: WorkMetadata, pattern: RegExp) =>
    assert.throws(
      () => declaredWork(notebookWith(cell, work), "notebooks/09-mine.ipynb"),
      (e: unknown) =>
        e instanceof SeamlabError &&
        /^notebooks\/09-mine\.ipynb: metadata\.seamlab\.work /.test(e.message) &&
        pattern.test(e.message),
    );
  refused(
    { ...sweep, splits: [{ of: ["depths"] }] },
    /"depths", which the parameters cell does not declare as a literal list/,
  );
  refused(
    { ...sweep, levels: [{ parameters: { k: { value: 3 } }, ran: "" }] },
    /injects "k", which the parameters cell does not/,
  );
  refused({ ...sweep, levels: [{ skip: ["grid"], ran: "" }] }, /skips an undeclared section "grid"/);
  refused({ ...sweep, levels: [{ ran: "sizes {sizes}" }] }, /names "\{sizes\}", which has no literal value/);
  refused({ ...sweep, pilot: "seams" }, /pilot "seams" needs literal splitters, size and overlap/);
  refused({ ...sweep, memory: undefined } as unknown as WorkMetadata, /needs memory\.bytesPerChar/);
  // a notebook that declares nothing is not planned by level
  assert.equal(declaredWork({ ...notebookWith(cell, sweep), metadata: {} }, "x"), undefined);
});

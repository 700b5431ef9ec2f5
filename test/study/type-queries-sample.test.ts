import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadTypedInputs } from "../../src/study/type-queries";

test("notebook 07's typed queries are sampled with their types, the corpus kept whole", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-typed-sample-"));
  for (let d = 0; d < 12; d++) {
    const sections = [0, 1, 2].map((s) => `## Part ${d}.${s}\n\nSection ${d}.${s} explains step ${s} of task ${d}.`);
    writeFileSync(join(dir, `doc${d}.md`), `# Doc ${d}\n\n${sections.join("\n\n")}\n\n\`\`\`js\nrun(${d});\n\`\`\`\n`);
  }
  const all = loadTypedInputs(dir, "headers", [], "all");
  const sampled = loadTypedInputs(dir, "headers", [], 10);
  assert.equal(all.queries.length, 36);
  assert.equal(sampled.queries.length, 10);
  assert.deepEqual(sampled.sweepDocs, all.sweepDocs);
  const typeOf = new Map(all.queries.map((q, i) => [q.id, all.types[i]]));
  sampled.queries.forEach((q, i) => assert.equal(sampled.types[i], typeOf.get(q.id)));
  assert.match(sampled.querySource, /; of these, a seeded sample of 10 of 36 queries \(query sample 10\) run$/);
  assert.equal(loadTypedInputs(dir, "headers").queries.length, 36, "auto keeps a small set whole");
  assert.throws(() => loadTypedInputs(dir, "headers", [], "lots"), /the querySample parameter must be/);
});

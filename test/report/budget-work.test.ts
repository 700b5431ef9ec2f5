// The limits `seamlab report --budget` and `--max-memory` set: a notebook's time limit, the per-cell timeout, the flag.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cellTimeoutSeconds, notebookTimeLimitMs, overrunNote, parseMaxMemory } from "../../src/report/budget-work";

test("--max-memory takes gigabytes and names itself when wrong", () => {
  assert.equal(parseMaxMemory("4"), 4 * 1024 ** 3);
  assert.equal(parseMaxMemory(undefined), undefined);
  for (const bad of ["0", "lots", "-1", "2000"]) assert.throws(() => parseMaxMemory(bad), /--max-memory must be/);
});

test("a cell may run as long as a notebook planned at the whole budget may, unless --timeout says otherwise", () => {
  assert.equal(cellTimeoutSeconds(undefined, undefined), 300);
  assert.equal(cellTimeoutSeconds(undefined, 14), 1680, "--budget 14: a notebook planned at 14 min may run 28");
  assert.equal(cellTimeoutSeconds(undefined, 14), notebookTimeLimitMs(14 * 60_000) / 1000);
  assert.equal(cellTimeoutSeconds(undefined, 2), 300, "a short budget keeps the default");
  assert.equal(cellTimeoutSeconds(undefined, 0.5), 300);
  assert.equal(cellTimeoutSeconds(60, 14), 60, "--timeout given wins");
  assert.equal(cellTimeoutSeconds(900, undefined), 900);
});

test("a notebook's time limit under --budget is twice its estimate, and at least 2 minutes over it", () => {
  assert.equal(notebookTimeLimitMs(10 * 60_000), 20 * 60_000);
  assert.equal(notebookTimeLimitMs(60_000), 3 * 60_000, "a 1-minute notebook gets 2 more");
  assert.equal(notebookTimeLimitMs(0), 120_000);
  const note = overrunNote({ prefix: "05", plannedMs: 6 * 60_000, limitMs: 12 * 60_000, budgetMinutes: 14 });
  assert.match(note, /`--budget 14`, this notebook was \*\*stopped\*\* at its time limit of 12\.0 min/);
  assert.match(note, /twice its planned 6\.0 min/);
  assert.match(note, /--only 05/);
});

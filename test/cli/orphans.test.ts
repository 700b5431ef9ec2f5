// Issue 33 §4: `kill -9` of whatever started seamlab (the `npx` wrapper, which runs it through `sh -c`) stops seamlab
// within seconds, before it publishes anything, even while its main thread is blocked. The report below is slowed
// by SEAMLAB_REPORT_STEP_DELAY_MS, which blocks the main thread after the report is staged (the fault injection test/
// helpers/publish-faults.mjs preloads into seamlab).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin, hashFolder, root, seamlab } from "./spawn-cli";
import { alive, waitFor } from "../helpers/processes";
import { publishFaultEnv } from "../helpers/publish-faults";

let work = "";
let corpus = "";
let notebooks = "";

before(() => {
  work = mkdtempSync(join(tmpdir(), "seamlab-orphans-cli-"));
  corpus = join(work, "corpus");
  mkdirSync(corpus);
  writeFileSync(join(corpus, "a.md"), "# A\n\n## Why?\n\nBecause.\n");
  notebooks = join(work, "notebooks");
  mkdirSync(notebooks);
  const executed = readFileSync(join(root, "test/fixtures/notebooks/executed/every-output.ipynb"));
  writeFileSync(join(notebooks, "01-first.ipynb"), executed);
});

after(() => rmSync(work, { recursive: true, force: true }));

/** The pid of the seamlab process writing `out` (found by its command line), once it runs. */
function seamlabWriting(out: string): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (cmdline.some((arg) => arg.endsWith("bin/seamlab.js")) && cmdline.includes(out) && alive(Number(name)))
        return Number(name);
    } catch {
      // the process ended while we looked
    }
  }
  return undefined;
}

/**
 * Starts a wrapper (a node process, as `npx` is) that runs `seamlab report` into `out` through `sh -c` (as `npx`
 * does) or directly, then kills the wrapper with SIGKILL once seamlab has staged its report. Returns seamlab's pid
 * and when the wrapper was killed.
 */
async function killWrapper(out: string, { shell, env = {} }: { shell: boolean; env?: Record<string, string> }) {
  const args = [bin, "report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", out];
  const command = shell
    ? `require("node:child_process").spawn("sh", ["-c", '"$0" "$@"; exit $?', process.execPath, ...${JSON.stringify(args)}], { stdio: "ignore" }); setInterval(() => {}, 1000);`
    : `require("node:child_process").spawn(process.execPath, ${JSON.stringify(args)}, { stdio: "ignore" }); setInterval(() => {}, 1000);`;
  const wrapper = spawn(process.execPath, ["-e", command], {
    cwd: root,
    stdio: "ignore",
    env: publishFaultEnv({ SEAMLAB_REPORT_STEP_DELAY_MS: "30000", ...env }),
  });
  const closed = new Promise((resolve) => wrapper.on("close", resolve));
  const pid = await waitFor("seamlab to start", 30_000, () => seamlabWriting(out));
  await waitFor("the report to be staged", 30_000, () =>
    readdirSync(work).some((name) => name.startsWith(`.${out.split("/").pop()}.seamlab-staging-`)) ? true : undefined,
  );
  wrapper.kill("SIGKILL");
  await closed;
  return { pid, killedAt: Date.now() };
}

for (const shell of [true, false]) {
  test(`kill -9 of the wrapper that started seamlab report${shell ? " through sh -c, as npx does," : ""} stops it within seconds, and it publishes nothing`, async () => {
    const out = join(work, shell ? "out-sh" : "out-direct");
    const first = seamlab(["report", "--no-execute", "--corpus", corpus, "--notebooks", notebooks, "--out", out]);
    assert.equal(first.status, 0, first.stderr);
    const before = hashFolder(out);
    const { pid, killedAt } = await killWrapper(out, { shell });
    await waitFor("seamlab to stop", 8_000, () => (alive(pid) ? undefined : true));
    assert.ok(Date.now() - killedAt < 8_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(hashFolder(out), before, "the report published before is byte for byte as it was");
  });
}

test("with SEAMLAB_DETACHED=1, seamlab outlives the wrapper that started it and finishes its report", async () => {
  const out = join(work, "out-detached");
  const { pid } = await killWrapper(out, {
    shell: true,
    env: { SEAMLAB_DETACHED: "1", SEAMLAB_REPORT_STEP_DELAY_MS: "1500" },
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.ok(alive(pid), "still running after its wrapper was killed");
  await waitFor("the report to finish", 20_000, () => (alive(pid) ? undefined : true));
  assert.match(readFileSync(join(out, "index.html"), "utf8"), /01-first/);
});

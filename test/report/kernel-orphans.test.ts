// `kill -9` of a running `seamlab report` must not leave tslab kernels behind (each is ~260 MB), even while a
// cell keeps the kernel's own event loop busy; the kernel's temp folder is reclaimed by the next run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reclaimKernelTempDirs } from "../../src/report/kernel";
import { bin, root } from "../cli/spawn-cli";
import { alive, kernelsOf, waitFor } from "../helpers/processes";

test("kill -9 of seamlab report ends its kernel within seconds, even mid-cell, and the next run reclaims its temp folder", async () => {
  const work = mkdtempSync(join(tmpdir(), "seamlab-orphans-"));
  try {
    const notebooks = join(work, "notebooks");
    mkdirSync(notebooks);
    mkdirSync(join(work, "corpus"));
    writeFileSync(join(work, "corpus", "a.md"), "# A\n\nText.\n");
    const cell = (source: string, tags: string[] = []) => ({
      cell_type: "code",
      source,
      metadata: { tags },
      outputs: [],
      execution_count: null,
    });
    writeFileSync(
      join(notebooks, "01-busy.ipynb"),
      JSON.stringify({
        nbformat: 4,
        nbformat_minor: 5,
        metadata: {},
        cells: [
          cell('const corpus = "";', ["parameters"]),
          cell("const until = Date.now() + 60000;\nwhile (Date.now() < until) {}"),
        ],
      }),
    );
    // The run gets its own temp folder: any kernel another test starts meanwhile reclaims dead runs' folders in the
    // shared one, which would remove this one before the test looks for it.
    const temp = join(work, "tmp");
    mkdirSync(temp);
    const child = spawn(
      process.execPath,
      [bin, "report", "--corpus", join(work, "corpus"), "--notebooks", notebooks, "--out", join(work, "out")],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, TMPDIR: temp } },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const closed = new Promise((resolve) => child.on("close", resolve));
    const [kernel] = await waitFor("the kernel to start", 60_000, () => {
      const found = kernelsOf(child.pid!);
      return found.length > 0 && stderr.includes("running 01-busy") ? found : undefined;
    });
    // Let the busy cell start, so the kernel's event loop is blocked when its parent dies.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill("SIGKILL");
    await closed;
    const killedAt = Date.now();
    await waitFor("the kernel to die", 5_000, () => (alive(kernel) ? undefined : true));
    assert.ok(Date.now() - killedAt < 5_000);
    const leftover = readdirSync(temp).filter((name) => name.startsWith(`seamlab-kernel-${child.pid}-`));
    assert.equal(leftover.length, 1, "the killed run's kernel folder is left (no chance to clean up)");
    assert.ok(reclaimKernelTempDirs(temp) >= 1);
    assert.equal(existsSync(join(temp, leftover[0])), false, "the next run reclaims it");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

// The kernel watchdog (src/report/kernel-watchdog.mjs) follows the parent a kernel was given, and only a live one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { root } from "../cli/spawn-cli";
import { alive, waitFor } from "../helpers/processes";

const watchdog = join(root, "src", "report", "kernel-watchdog.mjs");

/** A node process with the watchdog preloaded that prints "ready", then runs for `ms` and prints "lived". */
function watched(env: Record<string, string>, ms: number) {
  const child = spawn(
    process.execPath,
    ["--import", watchdog, "-e", `console.log("ready"); setTimeout(() => console.log("lived"), ${ms})`],
    {
      env: { ...process.env, SEAMLAB_KERNEL_PARENT: "", JPY_PARENT_PID: "", ...env },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return { child, closed, output: () => stdout };
}

test("a JPY_PARENT_PID that names a dead process is ignored: the kernel lives", async () => {
  const probe = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => probe.on("close", resolve));
  const run = watched({ JPY_PARENT_PID: String(probe.pid) }, 1500);
  await run.closed;
  assert.match(run.output(), /lived/);
});

test("a process named by JPY_PARENT_PID that dies takes the kernel with it within a second", async () => {
  const jupyter = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  const run = watched({ JPY_PARENT_PID: String(jupyter.pid) }, 30_000);
  try {
    await waitFor("the watched process to start", 10_000, () => (run.output().includes("ready") ? true : undefined));
    jupyter.kill("SIGKILL");
    const killedAt = Date.now();
    await waitFor("the watched process to die", 5_000, () => (alive(run.child.pid!) ? undefined : true));
    assert.ok(Date.now() - killedAt < 5_000);
    assert.doesNotMatch(run.output(), /lived/);
  } finally {
    jupyter.kill("SIGKILL");
    run.child.kill("SIGKILL");
  }
});

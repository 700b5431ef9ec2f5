// The same notebooks must run unchanged under Debian's Jupyter with the seamlab kernelspec.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readNotebook, type CodeCell } from "../../src/report/nbformat";
import { KERNEL_NAME, writeKernelSpec } from "../../src/report/kernelspec";
import { renderNotebook } from "../../src/report/render";
import { VEGA_LITE_MIME } from "../../src/notebook/mime";
import { alive, kernelsOf, waitFor } from "../helpers/processes";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");

// Wall-clock limits catch a hang only; they are no measure of speed (that is bench/'s job). A fixture run needs about
// 10 s of CPU (Jupyter's Python, node, tslab, the cells) with the compiled copy of src/, 5-9 s more without it; on
// two cores at load 15-30 that took 43-100 s of wall time, and the old 90 s limit killed jupyter mid-run ("killed by a
// signal"). Each step gets ten minutes: kernel start, a cell, and the whole nbconvert process.
const STEP_SECONDS = 600;
const LIMITS = [
  `--ExecutePreprocessor.timeout=${STEP_SECONDS}`,
  `--ExecutePreprocessor.startup_timeout=${STEP_SECONDS}`,
];
const PROCESS_LIMIT_MS = 2 * STEP_SECONDS * 1000;

test("a fixture notebook executes under `jupyter nbconvert --execute` with the seamlab kernelspec", async (t) => {
  const probe = spawnSync("jupyter", ["nbconvert", "--version"], { encoding: "utf8" });
  if (probe.status !== 0) {
    const reason = "jupyter nbconvert not installed (apt-get install jupyter-nbconvert python3-nbclient)";
    console.log(`# skipping the nbconvert test: ${reason}`);
    t.skip(reason);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "seamlab-nbconvert-"));
  try {
    writeKernelSpec(join(work, "jupyter"), root);
    const run = spawnSync(
      "jupyter",
      [
        "nbconvert",
        "--to",
        "notebook",
        "--execute",
        join(here, "..", "fixtures", "notebooks", "every-output.ipynb"),
        "--output-dir",
        join(work, "out"),
        `--ExecutePreprocessor.kernel_name=${KERNEL_NAME}`,
        ...LIMITS,
      ],
      { encoding: "utf8", env: { ...process.env, JUPYTER_PATH: join(work, "jupyter") }, timeout: PROCESS_LIMIT_MS },
    );
    assert.equal(run.status, 0, run.stderr);
    const executed = readNotebook(join(work, "out", "every-output.ipynb"));
    const cells = executed.cells.filter((cell): cell is CodeCell => cell.cell_type === "code");
    const stdout = cells[1].outputs[0];
    assert.ok(stdout.output_type === "stream" && String(stdout.text).startsWith("corpus=default-corpus k=3"));
    const charts = cells
      .flatMap((cell) => cell.outputs)
      .filter((o) => o.output_type === "display_data" && VEGA_LITE_MIME in o.data);
    assert.equal(charts.length, 2);
    // And our renderer reads what nbconvert wrote.
    const page = await renderNotebook(executed, "every-output");
    assert.equal(page.charts, 2);
    assert.equal(page.headlines.length, 2);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("kill -9 of `jupyter nbconvert` ends the seamlab kernel it started within seconds, even mid-cell", async (t) => {
  if (spawnSync("jupyter", ["nbconvert", "--version"], { encoding: "utf8" }).status !== 0) {
    console.log("# skipping the nbconvert orphan test: jupyter nbconvert not installed");
    t.skip("jupyter nbconvert not installed");
    return;
  }
  const work = mkdtempSync(join(tmpdir(), "seamlab-nbconvert-orphan-"));
  try {
    writeKernelSpec(join(work, "jupyter"), root);
    const busy = join(work, "busy.ipynb");
    const cell = (source: string) => ({ cell_type: "code", source, metadata: {}, outputs: [], execution_count: null });
    writeFileSync(
      busy,
      JSON.stringify({
        nbformat: 4,
        nbformat_minor: 5,
        metadata: { kernelspec: { name: KERNEL_NAME, display_name: "TypeScript (seamlab)", language: "typescript" } },
        cells: [cell('console.log("busy");\nconst until = Date.now() + 60000;\nwhile (Date.now() < until) {}')],
      }),
    );
    const child = spawn(
      "jupyter",
      ["nbconvert", "--to", "notebook", "--execute", busy, "--output-dir", join(work, "out")],
      { env: { ...process.env, JUPYTER_PATH: join(work, "jupyter") }, stdio: "ignore" },
    );
    const closed = new Promise((resolve) => child.on("close", resolve));
    let kernel = 0;
    try {
      [kernel] = await waitFor("nbconvert's kernel to start", STEP_SECONDS * 1000, () => {
        const found = kernelsOf(child.pid!);
        return found.length > 0 ? found : undefined;
      });
      // Let the busy cell start, so the kernel's event loop is blocked when Jupyter dies.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      child.kill("SIGKILL");
      await closed;
      const killedAt = Date.now();
      await waitFor("the kernel to die", 5_000, () => (alive(kernel) ? undefined : true));
      assert.ok(Date.now() - killedAt < 5_000);
    } finally {
      child.kill("SIGKILL");
      // A failed run must not leave its busy kernel spinning for the rest of the suite.
      if (kernel > 0 && alive(kernel)) process.kill(kernel, "SIGKILL");
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("notebooks executed by seamlab's runner validate against nbformat's own schema", (t) => {
  const where = spawnSync("sh", ["-c", "command -v jupyter"], { encoding: "utf8" });
  const jupyter = where.stdout.trim();
  if (where.status !== 0 || jupyter === "") {
    console.log("# skipping nbformat validation: jupyter not installed");
    t.skip("jupyter not installed");
    return;
  }
  // Jupyter's own Python (its shebang) has nbformat.
  const python = readFileSync(jupyter, "utf8")
    .split("\n")[0]
    .replace(/^#!\s*/, "")
    .trim()
    .split(/\s+/);
  const fixtures = join(here, "..", "fixtures", "notebooks", "executed");
  const check = spawnSync(
    python[0],
    [
      ...python.slice(1),
      "-c",
      "import nbformat, sys\nfor p in sys.argv[1:]:\n    nbformat.validate(nbformat.read(p, as_version=4))\nprint('valid')",
      join(fixtures, "every-output.ipynb"),
      join(fixtures, "failing-cell.ipynb"),
    ],
    { encoding: "utf8" },
  );
  assert.equal(check.status, 0, check.stderr);
  assert.equal(check.stdout.trim(), "valid");
});

// The CLI and the sweep's worker threads run src/ built as JavaScript once per version of the sources
// (src/build/ensure-built.cjs): the build must follow every edit, keep each module's own import.meta.url, land whole,
// and fall back to tsx when it cannot be made.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { builtKey, ensureBuilt } from "../../src/build/ensure-built.cjs";
import { root, seamlab } from "../cli/spawn-cli";
import { tempProject } from "../helpers/temp-project";

/**
 * A project with a two-module CLI (a lazily imported command, a file found through import.meta.url), a worker entry
 * sharing a module with it, and esbuild.
 */
function fakeProject(): string {
  const dir = tempProject("seamlab-build-", {
    "package.json": JSON.stringify({ name: "seamlab", type: "module" }),
    "src/cli/main.ts":
      'export async function main(argv: string[]): Promise<string> {\n  const { run } = await import("./hello");\n' +
      "  return run(argv);\n}\n",
    "src/cli/hello.ts":
      'export const run = (argv: string[]): string => `${argv.join(" ")} ${new URL("./data.txt", import.meta.url).href}`;\n',
    "src/cli/data.txt": "beside hello.ts\n",
    "src/experiment/worker.ts": 'export { run as runTask } from "../cli/hello";\n',
  });
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(root, "node_modules", "esbuild"), join(dir, "node_modules", "esbuild"));
  return dir;
}

async function cliBundle(dir: string): Promise<string | undefined> {
  return (await ensureBuilt(dir))?.cli;
}

const cliBundleKey = builtKey;

async function runBundle(file: string, argv: string[]): Promise<string> {
  const mod = (await import(`${pathToFileURL(file).href}?t=${Date.now()}`)) as {
    main: (argv: string[]) => Promise<string>;
  };
  return mod.main(argv);
}

test("the bundle runs the sources, keeps each module's import.meta.url, and is reused until src/ changes", async () => {
  const dir = fakeProject();
  try {
    const first = await cliBundle(dir);
    assert.ok(first, "a bundle was built");
    assert.ok(first.startsWith(join(dir, "node_modules", ".cache", "seamlab", "build-")));
    assert.equal(await runBundle(first, ["a", "b"]), `a b ${pathToFileURL(join(dir, "src/cli/data.txt")).href}`);
    assert.ok(readdirSync(dirname(first)).length >= 3, "the lazily imported command is its own chunk, shared");
    const built = statSync(first).mtimeMs;
    assert.equal(await cliBundle(dir), first, "the same sources: the same bundle");
    assert.equal(statSync(first).mtimeMs, built, "and it was not built again");

    const key = cliBundleKey(dir, "0");
    writeFileSync(join(dir, "src/cli/data.txt"), "edited\n");
    assert.notEqual(cliBundleKey(dir, "0"), key, "any file of src/ is part of the key");
    assert.notEqual(cliBundleKey(dir, "1"), cliBundleKey(dir, "0"), "so is esbuild's version");
    const twin = fakeProject();
    try {
      writeFileSync(join(twin, "src/cli/data.txt"), "edited\n");
      assert.notEqual(cliBundleKey(twin, "0"), cliBundleKey(dir, "0"), "and the checkout's folder (its paths)");
    } finally {
      rmSync(twin, { recursive: true, force: true });
    }
    writeFileSync(
      join(dir, "src/cli/hello.ts"),
      "export const run = (argv: string[]): string => `edited ${argv.length}`;\n",
    );
    const second = await cliBundle(dir);
    assert.ok(second && second !== first);
    assert.equal(await runBundle(second, ["x"]), "edited 1");
    const leftovers = readdirSync(join(dir, "node_modules", ".cache", "seamlab")).filter((n) => n.endsWith(".tmp"));
    assert.deepEqual(leftovers, [], "no temp folder left behind");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a new bundle removes dead builds' temp folders and bundles unused for a day, beyond the three used last", async () => {
  const dir = fakeProject();
  try {
    const cache = join(dir, "node_modules", ".cache", "seamlab");
    const day = 24 * 3600 * 1000;
    const made = (name: string, ageMs: number) => {
      mkdirSync(join(cache, name), { recursive: true });
      const when = new Date(Date.now() - ageMs);
      utimesSync(join(cache, name), when, when);
    };
    for (let i = 0; i < 5; i++) made(`build-${"a".repeat(23)}${i}`, 2 * day + i * 60_000);
    made(`build-${"b".repeat(24)}`, 3_600_000); // used an hour ago
    made(`.build-${"c".repeat(24)}.999999999.tmp`, 0); // a build whose process is gone
    made("notes", 9 * day); // not the CLI's
    const bundle = await cliBundle(dir);
    assert.ok(bundle);
    const kept = readdirSync(cache).sort();
    const expected = [`build-${"a".repeat(23)}0`, `build-${"a".repeat(23)}1`, `build-${"b".repeat(24)}`, "notes"];
    assert.deepEqual(kept, [...expected, dirname(bundle).slice(cache.length + 1)].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("without a bundle (sources esbuild cannot build, or SEAMLAB_BUILD=0) the caller is told to use tsx", async () => {
  const dir = fakeProject();
  try {
    writeFileSync(join(dir, "src/cli/hello.ts"), "export const run = (;\n");
    assert.equal(await cliBundle(dir), undefined);
    writeFileSync(join(dir, "src/cli/hello.ts"), "export const run = () => 'fine';\n");
    process.env.SEAMLAB_BUILD = "0";
    try {
      assert.equal(await cliBundle(dir), undefined);
    } finally {
      delete process.env.SEAMLAB_BUILD;
    }
    assert.ok(await cliBundle(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the CLI prints the same from its bundle and from the TypeScript sources", () => {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-build-corpus-"));
  try {
    writeFileSync(join(dir, "a.md"), "# A\n\nOne sentence here. Another one there.\n\nA second paragraph follows.\n");
    const args = ["seams", "--corpus", dir, "--size", "40", "--overlap", "10", "--no-cache", "--json"];
    const bundled = seamlab(args);
    const typescript = seamlab(args, { env: { ...process.env, SEAMLAB_BUILD: "0" } });
    assert.equal(bundled.status, 0, bundled.stderr);
    assert.equal(typescript.status, 0, typescript.stderr);
    const strip = (text: string) => JSON.parse(text, (k, v) => (/ms$|Ms$|rss|Rss|seconds/.test(k) ? 0 : v));
    assert.deepEqual(strip(bundled.stdout), strip(typescript.stdout));
    const bad = ["seams", "--corpus", dir, "--size", "-3"];
    assert.equal(seamlab(bad).stderr, seamlab(bad, { env: { ...process.env, SEAMLAB_BUILD: "0" } }).stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

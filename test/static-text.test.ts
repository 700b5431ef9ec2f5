/**
 * The fixed text seamlab prints and writes: every command's --help, the report page's CSS, Content-Security-Policy
 * and HTML shell, the seam viewer's CSS, the index page and a rendered notebook, the doc-type rules and the
 * splitters' descriptions. The snapshot was written by the code as it stood before long source lines were split
 * (concatenations, template line continuations), so it pins that the split changed none of these bytes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { captureStdout } from "./helpers/capture-stdout";
import { assertMatchesSnapshot } from "./helpers/snapshot";
import { commands } from "../src/cli/commands";
import { main } from "../src/cli/main";
import { CONTENT_SECURITY_POLICY, STYLE, pageHtml } from "../src/report/page";
import { SEAM_VIEWER_STYLE } from "../src/notebook/seam-viewer";
import { TYPE_RULES } from "../src/corpus/doc-types";
import { librarySplitters } from "../src/splitters/libraries";
import { splitters } from "../src/splitters/registry";
import { readNotebook } from "../src/report/nbformat";
import { renderNotebook } from "../src/report/render";
import { renderIndex } from "../src/report/index-page";

const here = fileURLToPath(new URL(".", import.meta.url));
const fixtures = join(here, "fixtures", "notebooks");

/** What `run` printed from its "Usage:" line on: node's test runner may write its own frames to stdout first. */
async function helpText(run: () => Promise<number>): Promise<string> {
  const { out } = await captureStdout(run);
  const at = out.indexOf("Usage: seamlab");
  assert.ok(at >= 0, `no usage line in ${JSON.stringify(out.slice(0, 200))}`);
  return out.slice(at);
}

test("help texts, report CSS and HTML, rules and descriptions are byte for byte what they were", async () => {
  const help: Record<string, string> = { seamlab: await helpText(() => main(["--help"])) };
  for (const [name, { load }] of Object.entries(commands)) {
    const command = await load();
    help[name] = await helpText(() => command.run(["--help"]));
  }
  const ok = await renderNotebook(readNotebook(join(fixtures, "every-output.ipynb")), "every-output");
  const failed = await renderNotebook(readNotebook(join(fixtures, "failing-cell.ipynb")), "failing-cell");
  const index = renderIndex([ok, failed], {
    corpus: "/data/corpus",
    generatedAt: "2026-01-01T00:00:00Z",
    version: "0.1.0",
    commit: "abc123",
    totalMs: 8000,
  });
  assertMatchesSnapshot(
    {
      help,
      style: STYLE,
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      page: pageHtml({ title: "T", crumbs: "C", toc: "", body: "B" }),
      seamViewerStyle: SEAM_VIEWER_STYLE,
      notebookPages: [ok.html, failed.html],
      index,
      typeRules: TYPE_RULES,
      librarySplitters: librarySplitters.map((s) => [s.name, s.library, s.api, s.semantics]),
      splitters: Object.entries(splitters).map(([name, entry]) => [name, entry.description ?? null]),
    },
    join(here, "static-text.snapshot.json"),
  );
});

// A two-file markdown corpus with header queries and one labelled question, in a fresh temporary folder.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The folder holds sampling.md, exporters.md and questions.csv (answer_span format); the caller removes it. */
export function tinyCorpusFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "seamlab-tiny-corpus-"));
  writeFileSync(
    join(dir, "sampling.md"),
    "# Sampling\n\n## How does tail sampling work?\n\nTail sampling decides after the whole trace is complete. It keeps slow traces.\n\n" +
      "## Head sampling\n\nHead sampling decides at the root span. It is cheap.\n",
  );
  writeFileSync(
    join(dir, "exporters.md"),
    "## Which exporter should I use?\n\nUse the OTLP exporter for new setups. Others exist.\n",
  );
  writeFileSync(
    join(dir, "questions.csv"),
    "question,answer_span\nwhen does tail sampling decide?,after the whole trace is complete\n",
  );
  return dir;
}

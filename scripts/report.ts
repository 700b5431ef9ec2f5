// `npm run report`: execute every notebook with its own parameters (the default corpus) and render reports/.
// Extra flags pass through, e.g. `npm run report -- --only 03` or `-- --corpus ../shared/data/tts-handbook`.
import { SeamlabError } from "../src/core/errors";
import { runReport } from "../src/cli/report";

try {
  process.exitCode = await runReport(process.argv.slice(2), { corpusRequired: false });
} catch (error) {
  if (!(error instanceof SeamlabError)) throw error;
  process.stderr.write(`seamlab report: ${error.message}\n`);
  process.exitCode = 2;
}

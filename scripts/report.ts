// `npm run report`: execute every notebook with its own parameters (the default corpus) and render reports/.
// Extra flags pass through, e.g. `npm run report -- --only 03` or `-- --corpus ../shared/data/tts-handbook`.
import { runReport } from "../src/cli/report";
import { userErrorExit } from "../src/cli/main";

const argv = process.argv.slice(2);
try {
  process.exitCode = await runReport(argv, { corpusRequired: false });
} catch (error) {
  // The CLI's handling: a bad flag or a refused write is one line and exit 2, never a stack.
  const exit = userErrorExit(error, argv, "seamlab report");
  if (exit === undefined) throw error;
  process.exitCode = exit;
}

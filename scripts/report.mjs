// `npm run report`: execute every notebook with its own parameters (the default corpus) and render reports/.
// Extra flags pass through, e.g. `npm run report -- --only 03` or `-- --corpus ../shared/data/tts-handbook`.
// It runs the CLI's built src/ as `seamlab report` does (bin/launch.js); through tsx, its first kernel started about
// 0.3 s later.
import { launch } from "../bin/launch.js";

await launch("defaultReport", process.argv.slice(2));

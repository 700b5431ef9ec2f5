// Child-process entry of `seamlab report --budget`'s retrieval pilot (`report-pilot.ts`): a plain-JS file that
// registers tsx, then runs the pilot and prints its answer. The process exits when done, taking what it held.
import { register } from "tsx/esm/api";

register();
const { answerPilot } = await import("./report-pilot.ts");
await answerPilot(process.argv[2]);

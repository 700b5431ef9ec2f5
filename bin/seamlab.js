#!/usr/bin/env node
// Runs the CLI from its bundle (src/cli/cli-bundle.mjs: plain JavaScript, built once per version of src/), else the
// TypeScript sources through tsx, so `npx seamlab` works right after `npm ci` either way.
import { fileURLToPath, pathToFileURL } from "node:url";
import { cliBundle } from "../src/cli/cli-bundle.mjs";

const bundle = await cliBundle(fileURLToPath(new URL("..", import.meta.url)));
let main;
if (bundle !== undefined) ({ main } = await import(pathToFileURL(bundle).href));
else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));

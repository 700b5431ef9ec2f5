#!/usr/bin/env node
// The seamlab command: src/cli/main.ts's `main`, started by launch.js (built src/, or the sources through tsx).
import { launch } from "./launch.js";

await launch("main", process.argv.slice(2));

import { SeamlabError } from "../core/errors";
import { commands } from "./commands";
import { seamlabVersion } from "../core/project";

async function usage(): Promise<string> {
  const lines = ["Usage: seamlab <command> [options]", "", "Commands:"];
  for (const [name, load] of Object.entries(commands)) {
    const mod = await load();
    lines.push(`  ${name.padEnd(18)} ${mod.summary}`);
  }
  lines.push("", "Run `seamlab <command> --help` for a command's options.");
  return lines.join("\n");
}

/** Runs the CLI; returns the exit code. User errors print a message, never a stack. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      process.stdout.write((await usage()) + "\n");
      return name === undefined ? 1 : 0;
    }
    if (name === "--version" || name === "-v") {
      process.stdout.write(`${seamlabVersion()}\n`);
      return 0;
    }
    const load = commands[name];
    if (!load) {
      throw new SeamlabError(`unknown command "${name}". Commands: ${Object.keys(commands).join(", ")}.`);
    }
    const mod = await load();
    return await mod.run(rest);
  } catch (error) {
    if (error instanceof SeamlabError) {
      process.stderr.write(`seamlab: ${error.message}\n`);
      return 2;
    }
    // node:util parseArgs reports unknown/malformed flags with this code: a user error too.
    if (error instanceof Error && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`seamlab: ${error.message}\n`);
      return 2;
    }
    // A file-system refusal on a path the user gave (a folder where a file was expected, no permission, a full
    // or read-only disk): Node's message names the path and the operation, which is what the user needs.
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (error instanceof Error && code !== undefined && FILE_SYSTEM_CODES.has(code)) {
      process.stderr.write(`seamlab: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

const FILE_SYSTEM_CODES = new Set([
  "EACCES",
  "EBUSY",
  "EEXIST",
  "EISDIR",
  "ELOOP",
  "EMFILE",
  "ENAMETOOLONG",
  "ENOENT",
  "ENOSPC",
  "ENOTDIR",
  "ENOTEMPTY",
  "EPERM",
  "EROFS",
  "EXDEV",
]);

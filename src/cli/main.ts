import { readlinkSync } from "node:fs";
import { SeamlabError } from "../core/errors";
import { releaseOutputLocks } from "../core/output-lock";
import { writeFailureMessage } from "../core/write-failure";
import { commands } from "./commands";
import { seamlabVersion } from "../core/project";

function usage(): string {
  const lines = ["Usage: seamlab <command> [options]", "", "Commands:"];
  for (const [name, command] of Object.entries(commands)) lines.push(`  ${name.padEnd(18)} ${command.summary}`);
  lines.push("", "Run `seamlab <command> --help` for a command's options.");
  return lines.join("\n");
}

/** The flags naming what a command writes, with their values, for a refused write that names no file. */
const OUTPUT_FLAGS = ["--out", "--corpus-out", "--export", "--per-seam", "--html", "--journal", "--cache-dir"];

function outputsOf(argv: readonly string[]): string[] {
  return argv.flatMap((arg, i) => {
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    const value = inline ?? argv[i + 1];
    return OUTPUT_FLAGS.includes(flag) && value !== undefined ? [`${flag} ${value}`] : [];
  });
}

/** Where file descriptor `fd` writes (from /proc on Linux), or undefined. */
function targetOf(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

let streamsGuarded = false;

/** A full disk or a closed pipe (`| head`) fails stdout after `main` returned: one line (or quiet), not a stack. */
function guardStandardStreams(argv: readonly string[]): void {
  if (streamsGuarded) return;
  streamsGuarded = true;
  const streams = [
    [process.stdout, 1, "standard output"],
    [process.stderr, 2, "standard error"],
  ] as const;
  for (const [stream, fd, name] of streams) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      const target = targetOf(fd);
      const message =
        writeFailureMessage(error, { path: target, outputs: outputsOf(argv) }) ??
        `cannot write ${name}${target ? ` (${target})` : ""}: ${error.message}.`;
      if (fd === 1) process.stderr.write(`seamlab: ${message}\n`);
      process.exit(2);
    });
  }
}

/** Runs the CLI; returns the exit code. User errors print a message, never a stack. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  return guarded(argv, rest, "seamlab", async () => {
    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      process.stdout.write(usage() + "\n");
      return name === undefined ? 1 : 0;
    }
    if (name === "--version" || name === "-v") {
      process.stdout.write(`${seamlabVersion()}\n`);
      return 0;
    }
    const command = commands[name];
    if (!command) throw new SeamlabError(`unknown command "${name}". Commands: ${Object.keys(commands).join(", ")}.`);
    const mod = await command.load();
    return await mod.run(rest);
  });
}

/** `npm run report`: `seamlab report` on the notebooks' own parameters (the default corpora), no --corpus needed. */
export async function defaultReport(argv: string[]): Promise<number> {
  return guarded(argv, argv, "seamlab report", async () => {
    const { runReport } = await import("./report");
    return runReport(argv, { corpusRequired: false });
  });
}

/** `work`'s exit code; a user's error in it is one line after `prefix` and exit 2. `flags`: the command's flags. */
async function guarded(argv: string[], flags: string[], prefix: string, work: () => Promise<number>) {
  guardStandardStreams(argv);
  try {
    return await work();
  } catch (error) {
    const exit = userErrorExit(error, flags, prefix);
    if (exit === undefined) throw error;
    return exit;
  } finally {
    releaseOutputLocks();
  }
}

/**
 * For a user's error (a SeamlabError, a bad flag, a refused file-system call), its message to stderr after `prefix`
 * and the exit code; undefined for anything else, a bug the caller rethrows. `argv`: the command's flags.
 */
function userErrorExit(error: unknown, argv: readonly string[], prefix = "seamlab"): number | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // parseArgs reports unknown or malformed flags with ERR_PARSE_ARGS_*: a user error too.
  if (error instanceof SeamlabError || (error instanceof Error && code?.startsWith("ERR_PARSE_ARGS"))) {
    process.stderr.write(`${prefix}: ${error.message}\n`);
    return 2;
  }
  // A refused write says what to do; any other file-system refusal: Node's message names the path and operation.
  if (error instanceof Error && code !== undefined && FILE_SYSTEM_CODES.has(code)) {
    process.stderr.write(`${prefix}: ${writeFailureMessage(error, { outputs: outputsOf(argv) }) ?? error.message}\n`);
    return 2;
  }
  return undefined;
}

const FILE_SYSTEM_CODES = new Set(
  "EACCES EBUSY EDQUOT EEXIST EISDIR ELOOP EMFILE ENAMETOOLONG ENOENT ENOSPC ENOTDIR ENOTEMPTY EPERM EROFS EXDEV".split(
    " ",
  ),
);

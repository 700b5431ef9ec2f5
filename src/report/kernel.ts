// A Jupyter client for one tslab kernel process: starts it in a temp dir holding its connection file (ipc sockets, so
// no TCP ports to race for), speaks the messaging protocol over zeromq, runs code with a timeout (SIGINT interrupts, as
// tslab's kernel has no interrupt_request handler) and shuts it down.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../core/atomic-write";
import { Dealer, Subscriber, Request } from "zeromq";
import { SeamlabError } from "../core/errors";
import { decodeMessage, encodeMessage, newMessage, type JupyterMessage } from "./wire";

export interface ExecuteOutcome {
  /** "ok", "error" (tslab: an exception, or a compile error), or "abort". */
  status: string;
  executionCount: number | null;
  /** iopub messages caused by this request, in arrival order (status messages left out). */
  messages: JupyterMessage[];
  durationMs: number;
  timedOut: boolean;
}

interface RequestOptions {
  socket?: Dealer;
  idleAfterReplyMs?: number;
  interruptGraceMs?: number;
}

interface Pending {
  reply?: JupyterMessage;
  idle: boolean;
  messages: JupyterMessage[];
  done: () => void;
  /** Called when the shell reply arrives before the idle status (the handshake's slow-joiner case). */
  replied?: () => void;
}

// Kernels still running, so that an interrupted report does not leave tslab processes behind.
const liveKernels = new Set<{ child: ChildProcess; dir: string }>();
let exitHookInstalled = false;

/** Kills every kernel this process started (synchronous: safe in an "exit" handler) and removes their temp dirs. */
export function killAllKernels(): void {
  for (const kernel of liveKernels) {
    if (kernel.child.exitCode === null && kernel.child.signalCode === null) kernel.child.kill("SIGKILL");
    rmSync(kernel.dir, { recursive: true, force: true });
  }
  liveKernels.clear();
}

/** Preloaded into each kernel: kills it when this process is gone, even after a SIGKILL (see the file). */
const WATCHDOG = new URL("./kernel-watchdog.mjs", import.meta.url).href;
const QUIET_WATCH = new URL("./kernel-quiet-watch.mjs", import.meta.url).href;
const TEMP_PREFIX = "seamlab-kernel-";

/**
 * Removes the temp folders of kernels whose report process is gone (killed before it could clean up). The
 * folder names carry that process's id; folders of running processes, and any other folder, are left alone.
 */
export function reclaimKernelTempDirs(dir = tmpdir()): number {
  let removed = 0;
  for (const name of readdirSync(dir)) {
    const match = new RegExp(`^${TEMP_PREFIX}(\\d+)-`).exec(name);
    if (!match || processAlive(Number(match[1]))) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}

export function tslabBinary(root: string): string {
  return join(root, "node_modules", "tslab", "bin", "tslab");
}

/**
 * `target` made to list the packages of `packages` (the project's node_modules): a link to it, or, without Node's
 * types, a folder of links to each package but @types/node, whose place holds an empty package instead. TypeScript
 * looks for types in the node_modules folders above the kernel's working folder (and tslab adds its own copy of
 * @types/node when it finds no "node" package there, hence the empty one).
 */
export function linkPackages(packages: string, target: string, nodeTypes: boolean): void {
  if (nodeTypes) {
    symlinkSync(packages, target);
    return;
  }
  const mirror = (from: string, to: string, skip: string) => {
    mkdirSync(to);
    for (const name of readdirSync(from)) if (name !== skip) symlinkSync(join(from, name), join(to, name));
  };
  mirror(packages, target, "@types");
  const types = join(target, "@types");
  if (existsSync(join(packages, "@types"))) mirror(join(packages, "@types"), types, "node");
  mkdirSync(join(types, "node"), { recursive: true });
  writeFileSync(join(types, "node", "package.json"), '{ "name": "@types/node", "types": "index.d.ts" }\n');
  writeFileSync(join(types, "node", "index.d.ts"), "export {};\n");
}

export class TslabKernel {
  private readonly pending = new Map<string, Pending>();
  private readonly session = randomUUID();
  private stderrText = "";
  private exited: { code: number | null; signal: string | null } | null = null;
  private exitWaiters: Array<() => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly key: string,
    private readonly dir: string,
    private readonly shell: Dealer,
    private readonly control: Dealer,
    private readonly iopub: Subscriber,
    private readonly stdin: Dealer,
    private readonly heartbeat: Request,
  ) {
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString()).slice(-8000);
    });
    child.stdout?.on("data", () => {});
    child.on("exit", (code, signal) => {
      this.exited = { code, signal };
      for (const waiter of this.exitWaiters.splice(0)) waiter();
      for (const pending of this.pending.values()) pending.done();
    });
    void this.pump(shell, (message) => {
      const pending = this.pending.get(String(message.parent_header.msg_id));
      if (pending) {
        pending.reply = message;
        if (pending.idle) pending.done();
        else pending.replied?.();
      }
    });
    void this.pump(control, () => {});
    void this.pump(iopub, (message) => {
      const pending = this.pending.get(String(message.parent_header.msg_id));
      if (!pending) return;
      if (message.header.msg_type === "status") {
        if (message.content.execution_state === "idle") {
          pending.idle = true;
          if (pending.reply) pending.done();
        }
        return;
      }
      pending.messages.push(message);
    });
  }

  /** Links the kernel's `./src` to `srcDir` (a compiled copy's src/, or the project's); call before any cell. */
  useSources(srcDir: string): void {
    symlinkSync(srcDir, join(this.dir, "src"));
  }

  /**
   * Starts `tslab kernel` and waits until shell and iopub both answer (kernel_info handshake). The kernel's working
   * folder is its own temp folder: `node_modules` there lists the project's packages (without @types/node when
   * `nodeTypes` is false: kernel-node-types.ts), and `./src` is linked by `useSources` before the first cell, to a
   * compiled copy (kernel-sources.ts) or to the project's own src/, so `./src/...` imports load one or the other.
   */
  static async start(
    root: string,
    {
      startupTimeoutMs = 60_000,
      env = {},
      nodeTypes = true,
    }: { startupTimeoutMs?: number; env?: Record<string, string>; nodeTypes?: boolean } = {},
  ): Promise<TslabKernel> {
    const binary = tslabBinary(root);
    if (!existsSync(binary)) throw new SeamlabError(`tslab is not installed at ${binary}; run npm ci in ${root}.`);
    reclaimKernelTempDirs();
    const dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    linkPackages(join(root, "node_modules"), join(dir, "node_modules"), nodeTypes);
    const key = randomBytes(32).toString("hex");
    const connection = {
      transport: "ipc",
      ip: join(dir, "k"),
      shell_port: 1,
      iopub_port: 2,
      stdin_port: 3,
      control_port: 4,
      hb_port: 5,
      key,
      signature_scheme: "hmac-sha256",
      kernel_name: "seamlab-tslab",
    };
    const connectionFile = join(dir, "connection.json");
    writeFileSync(connectionFile, JSON.stringify(connection));
    const preloads = ["--import", WATCHDOG, "--import", QUIET_WATCH];
    const child = spawn(process.execPath, [...preloads, binary, "kernel", "--config-path", connectionFile], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...env,
        FORCE_COLOR: "0",
        NO_COLOR: "1",
        SEAMLAB_KERNEL_PARENT: String(process.pid),
      },
    });
    const live = { child, dir };
    liveKernels.add(live);
    child.on("exit", () => liveKernels.delete(live));
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on("exit", killAllKernels);
    }
    const address = (port: number) => `ipc://${connection.ip}:${port}`;
    const shell = new Dealer();
    const control = new Dealer();
    const iopub = new Subscriber();
    // stdin and heartbeat are connected for protocol completeness; cells run with allow_stdin: false, and a dead
    // kernel is noticed from its process exiting rather than from missed heartbeats.
    const stdin = new Dealer();
    const heartbeat = new Request();
    iopub.subscribe();
    shell.connect(address(connection.shell_port));
    control.connect(address(connection.control_port));
    iopub.connect(address(connection.iopub_port));
    stdin.connect(address(connection.stdin_port));
    heartbeat.connect(address(connection.hb_port));
    const kernel = new TslabKernel(child, key, dir, shell, control, iopub, stdin, heartbeat);
    try {
      await kernel.handshake(startupTimeoutMs);
    } catch (error) {
      await kernel.shutdown();
      throw error;
    }
    return kernel;
  }

  /** Kernel stderr seen so far (tslab's own crashes land here, not on iopub). */
  get stderr(): string {
    return this.stderrText;
  }

  private async pump(socket: Dealer | Subscriber, onMessage: (message: JupyterMessage) => void): Promise<void> {
    try {
      for await (const frames of socket) {
        let message: JupyterMessage;
        try {
          message = decodeMessage(this.key, frames as Buffer[]);
        } catch {
          continue; // a malformed or unsigned frame set is dropped, as jupyter_client does
        }
        onMessage(message);
      }
    } catch {
      // the socket was closed during shutdown
    }
  }

  // The iopub SUB socket only receives after its subscription reaches the kernel ("slow joiner"), so repeat
  // kernel_info until a status message for one of them arrives on iopub, as jupyter_client does. Once the kernel
  // answers on shell it is up: a status missed on iopub is asked for again within 50 ms, not after the full second.
  private async handshake(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) {
        throw new Error(`tslab kernel exited during startup (code ${this.exited.code}): ${this.stderrText.trim()}`);
      }
      const outcome = await this.request("kernel_info_request", {}, 1000, { idleAfterReplyMs: 50 });
      if (outcome.reply && outcome.idle) return;
    }
    throw new Error(`tslab kernel did not answer kernel_info within ${timeoutMs} ms: ${this.stderrText.trim()}`);
  }

  /**
   * Sends a request and waits for its reply and idle status, at most `timeoutMs`. `idleAfterReplyMs`: once replied,
   * wait at most this long for the idle status. `interruptGraceMs`: on timeout, interrupt (SIGINT) and give the
   * request this long to finish.
   */
  private request(
    msgType: string,
    content: Record<string, unknown>,
    timeoutMs: number,
    { socket = this.shell, idleAfterReplyMs, interruptGraceMs }: RequestOptions = {},
  ): Promise<{ reply?: JupyterMessage; idle: boolean; messages: JupyterMessage[]; timedOut: boolean }> {
    const message = newMessage(msgType, content, this.session);
    return new Promise((resolve) => {
      let timedOut = false;
      const finish = () => {
        clearTimeout(timer);
        this.pending.delete(message.header.msg_id);
        resolve({ reply: pending.reply, idle: pending.idle, messages: pending.messages, timedOut });
      };
      const timeOut = () => {
        timedOut = true;
        if (interruptGraceMs === undefined) return finish();
        this.interrupt();
        timer = setTimeout(finish, interruptGraceMs);
      };
      const pending: Pending = { idle: false, messages: [], done: finish };
      if (idleAfterReplyMs !== undefined) {
        pending.replied = () => {
          clearTimeout(timer);
          timer = setTimeout(timeOut, idleAfterReplyMs);
        };
      }
      this.pending.set(message.header.msg_id, pending);
      let timer = setTimeout(timeOut, timeoutMs);
      void socket.send(encodeMessage(this.key, message)).catch(finish);
    });
  }

  /** Runs one cell. On timeout the kernel is interrupted (SIGINT) and given 5 s to finish the request. */
  async execute(code: string, timeoutMs: number): Promise<ExecuteOutcome> {
    if (this.exited) throw new Error(`tslab kernel is not running: ${this.stderrText.trim()}`);
    const started = performance.now();
    const content = { code, silent: false, store_history: true, user_expressions: {}, allow_stdin: false };
    const request = { ...content, stop_on_error: true };
    const { reply, messages, timedOut } = await this.request("execute_request", request, timeoutMs, {
      interruptGraceMs: 5000,
    });
    const result: ExecuteOutcome = {
      status: timedOut ? "error" : String(reply?.content.status ?? "error"),
      executionCount: typeof reply?.content.execution_count === "number" ? reply.content.execution_count : null,
      messages,
      durationMs: performance.now() - started,
      timedOut,
    };
    if (this.exited && !result.timedOut && result.status !== "ok") {
      result.messages.push(
        newMessage("stream", { name: "stderr", text: `tslab kernel died: ${this.stderrText.trim()}\n` }, this.session),
      );
    }
    return result;
  }

  interrupt(): void {
    if (!this.exited) this.child.kill("SIGINT");
  }

  /** The kernel process's peak resident memory so far, in bytes (Linux: VmHWM; undefined elsewhere or once exited). */
  peakRssBytes(): number | undefined {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${this.child.pid}/status`, "utf8"))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** Asks for a clean shutdown on the control channel, then kills the process if it lingers; removes the temp dir. */
  async shutdown(): Promise<void> {
    if (!this.exited) {
      await this.request("shutdown_request", { restart: false }, 1000, { socket: this.control });
      await this.waitForExit(300);
    }
    // tslab closes its sockets on shutdown_request but its process can linger (pending timers in user code).
    for (const [signal, ms] of [
      ["SIGTERM", 1000],
      ["SIGKILL", 2000],
    ] as const) {
      if (this.exited) break;
      this.child.kill(signal);
      await this.waitForExit(ms);
    }
    for (const socket of [this.shell, this.control, this.iopub, this.stdin, this.heartbeat]) socket.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private waitForExit(ms: number): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.exitWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

// A Jupyter client for one tslab kernel process: started in a temp dir holding its connection file (ipc sockets: no
// TCP ports to race for), spoken to over zeromq, interrupted by SIGINT (tslab has no interrupt_request handler).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { namesLeftByGone } from "../core/atomic-write";
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

/** The kernel's sockets, in the order of their ports in the connection file. stdin and heartbeat are connected for
 * protocol completeness: cells never read stdin, and a dead kernel is noticed from its process exiting. */
function kernelSockets() {
  return {
    shell: new Dealer(),
    iopub: new Subscriber(),
    stdin: new Dealer(),
    control: new Dealer(),
    hb: new Request(),
  };
}
type Sockets = ReturnType<typeof kernelSockets>;

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
  replied?: () => void;
}

// Kernels still running: an interrupted report leaves no tslab process behind.
const liveKernels = new Set<{ child: ChildProcess; dir: string }>();

/** Kills every kernel this process started (synchronous: safe in an "exit" handler) and removes their temp dirs. */
export function killAllKernels(): void {
  for (const kernel of liveKernels) {
    if (kernel.child.exitCode === null && kernel.child.signalCode === null) kernel.child.kill("SIGKILL");
    rmSync(kernel.dir, { recursive: true, force: true });
  }
  liveKernels.clear();
}

process.on("exit", killAllKernels);

const WATCHDOG = new URL("./kernel-watchdog.mjs", import.meta.url).href;
const QUIET_WATCH = new URL("./kernel-quiet-watch.mjs", import.meta.url).href;
const TEMP_PREFIX = "seamlab-kernel-";

/** Removes the temp folders of kernels whose report process (its id in the folder's name) is gone. */
export function reclaimKernelTempDirs(dir = tmpdir()): number {
  const gone = namesLeftByGone(dir, new RegExp(`^${TEMP_PREFIX}(\\d+)-`));
  for (const name of gone) rmSync(join(dir, name), { recursive: true, force: true });
  return gone.length;
}

/**
 * A kernel's `node_modules` at `target`: a link to the project's `packages`, or, without Node's types, a folder holding
 * only an empty @types/node (tslab adds its own @types/node when it finds none). Such a notebook imports project files
 * only, and they resolve their packages from their own real paths, as tslab does; but TypeScript includes every @types
 * package under the kernel's folder in each program, and parsed the others (markdown-it, estree, ...) for nothing.
 */
export function makeKernelNodeModules(packages: string, target: string, nodeTypes: boolean): void {
  if (nodeTypes) {
    symlinkSync(packages, target);
    return;
  }
  const types = join(target, "@types", "node");
  mkdirSync(types, { recursive: true });
  writeFileSync(join(types, "package.json"), '{ "name": "@types/node", "types": "index.d.ts" }\n');
  writeFileSync(join(types, "index.d.ts"), "export {};\n");
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
    private readonly sockets: Sockets,
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
    void this.pump(sockets.shell, (message) => {
      const pending = this.pending.get(String(message.parent_header.msg_id));
      if (pending) {
        pending.reply = message;
        if (pending.idle) pending.done();
        else pending.replied?.();
      }
    });
    void this.pump(sockets.control, () => {});
    void this.pump(sockets.iopub, (message) => {
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

  /** Links the kernel's `./src` to `srcDir` (a compiled copy's src/, or the project's) before any cell. */
  useSources(srcDir: string): void {
    symlinkSync(srcDir, join(this.dir, "src"));
  }

  /** Starts `tslab kernel` in a temp folder (`makeKernelNodeModules` there); call `useSources` next. */
  static async start(
    root: string,
    { env = {}, nodeTypes = true }: { env?: Record<string, string>; nodeTypes?: boolean } = {},
  ): Promise<TslabKernel> {
    const binary = join(root, "node_modules", "tslab", "bin", "tslab");
    if (!existsSync(binary)) throw new SeamlabError(`tslab is not installed at ${binary}; run npm ci in ${root}.`);
    reclaimKernelTempDirs();
    const dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
    makeKernelNodeModules(join(root, "node_modules"), join(dir, "node_modules"), nodeTypes);
    const key = randomBytes(32).toString("hex");
    const sockets = kernelSockets();
    const ip = join(dir, "k");
    const ports = Object.fromEntries(Object.keys(sockets).map((name, i) => [`${name}_port`, i + 1]));
    const connection = {
      transport: "ipc",
      ip,
      ...ports,
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
    sockets.iopub.subscribe();
    Object.values(sockets).forEach((socket, i) => socket.connect(`ipc://${ip}:${i + 1}`));
    const kernel = new TslabKernel(child, key, dir, sockets);
    try {
      await kernel.handshake(60_000);
    } catch (error) {
      await kernel.shutdown();
      throw error;
    }
    return kernel;
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
    { socket = this.sockets.shell, idleAfterReplyMs, interruptGraceMs }: RequestOptions = {},
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
      await this.request("shutdown_request", { restart: false }, 1000, { socket: this.sockets.control });
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
    for (const socket of Object.values(this.sockets)) socket.close();
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

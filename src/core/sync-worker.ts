// A worker called synchronously (blocking on `Atomics.wait`, as synckit does), so async libraries can serve the
// synchronous splitters; it never keeps the process alive. The worker listens on `workerData.port` and after each
// `port.postMessage(reply)` does `Atomics.store(flag, 0, 1); Atomics.notify(flag, 0)` on `workerData.flag`.
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";

export interface SyncWorker {
  /** The worker's reply to `message`, or undefined when none came within `timeoutMs` (the worker keeps running). */
  call(message: unknown, timeoutMs: number): { reply: unknown } | undefined;
  stop(): void;
}

/** Starts the worker file `path` with `data` and its `port` and `flag` as workerData. */
export function startSyncWorker(name: string, path: string, data: Record<string, unknown>): SyncWorker {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(path, { workerData: { ...data, port: port2, flag }, transferList: [port2] });
  worker.unref();
  port1.unref();
  return {
    call(message, timeoutMs) {
      Atomics.store(flag, 0, 0);
      port1.postMessage(message);
      const deadline = Date.now() + timeoutMs;
      while (Atomics.load(flag, 0) === 0) {
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        Atomics.wait(flag, 0, 0, Math.min(left, 1000));
      }
      const received = receiveMessageOnPort(port1);
      if (!received) throw new Error(`${name} worker signalled but sent no reply`);
      return { reply: received.message };
    },
    stop() {
      port1.close();
      void worker.terminate();
    },
  };
}

/**
 * Worker thread of `library-bridge.ts`: runs the libraries (`library-adapters.mjs`) one document at a time, in
 * plain JavaScript. Request `{ library, options, text }`; reply `{ texts, anchors? }` or `{ error }`.
 * `adapterModule` (tests) names an extra module whose `adapters` are tried first.
 */
import { workerData } from "node:worker_threads";
import { adapters } from "./library-adapters.mjs";

const { port, flag, adapterModule } = workerData;

// Libraries warn on oversize chunks through console; that would interleave with the CLI's output (and --json).
console.warn = () => {};
console.log = () => {};
console.info = () => {};

let extra = {};
if (adapterModule) extra = (await import(adapterModule)).adapters;

port.on("message", async (request) => {
  let reply;
  try {
    const adapter = Object.prototype.hasOwnProperty.call(extra, request.library)
      ? extra[request.library]
      : adapters[request.library];
    if (!adapter) throw new Error(`no adapter for ${request.library}`);
    reply = await adapter(request.text, request.options);
  } catch (error) {
    reply = { error: String((error && error.message) || error) };
  }
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});

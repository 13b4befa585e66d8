// `neuralcut mcp` keeps answering `ping` while the engine works. The engine is synchronous wasm: a
// long call (a batch of thousands of edits, a split of an element with many keyframes) holds its
// thread until it returns. So the server (session, engine, Chromium hosts) runs in a worker thread,
// and the main thread only frames stdin (js/mcp/transport.ts: parse errors, bad ids and bad params
// are answered here), answers `ping` at once, and hands every other message to the worker as one
// line on its stdin. The worker's stdout (its own LineTransport) is the process's stdout.
import process from "node:process";
import { Worker } from "node:worker_threads";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

import { LineTransport, MAX_LINE_BYTES } from "./transport.js";

/** What may wait for the worker to read it; past this stdin is paused until the worker catches up
 * (a client that floods a busy server holds at most this, not all it sends). */
export const MAX_QUEUED_BYTES = 4 * MAX_LINE_BYTES;

/** Serves `argv` in a worker (js/mcp/worker.ts) behind this thread; resolves when it has ended
 * (the process exits with the worker's status when that is not 0). */
export function relayToWorker(argv: string[]): Promise<void> {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: { argv }, stdin: true });
  const transport = new LineTransport();
  let paused = false;
  let closed = false;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ("method" in message && message.method === "ping" && "id" in message) {
      void transport.send({ jsonrpc: "2.0", id: message.id, result: {} });
      return;
    }
    const stdin = worker.stdin!;
    stdin.write(`${JSON.stringify(message)}\n`);
    if (stdin.writableLength > MAX_QUEUED_BYTES && !paused) {
      paused = true;
      process.stdin.pause();
      stdin.once("drain", () => {
        paused = false;
        if (!closed) process.stdin.resume();
      });
    }
  };
  // The client closed stdin: the worker sees its stdin end, finishes what runs and exits.
  transport.onclose = () => {
    closed = true;
    worker.stdin!.end();
  };
  return new Promise((done) => {
    worker.on("error", (e: Error) => process.stderr.write(`neuralcut mcp: internal error: ${String(e?.stack ?? e)}\n`));
    worker.on("exit", (code: number) => {
      // A project that cannot be loaded ends the worker with 1: so ends the process.
      if (code !== 0) process.exit(code);
      void transport.close();
      done();
    });
    void transport.start();
  });
}

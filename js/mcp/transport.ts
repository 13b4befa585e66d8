// MCP over stdio, one JSON-RPC message per line, that answers what the SDK's
// StdioServerTransport drops or answers badly: a line that is not JSON gets a -32700 parse error
// (id null), a message whose id is not a string or an integer gets -32600 with id null, a JSON
// value that is not a JSON-RPC message gets -32600 (with its id when it has one), a served request
// with bad params gets -32602 naming the field (js/mcp/requests.ts; the SDK would answer -32603
// with zod's issue dump), and an over-long line is discarded with -32600 instead of closing the
// session. Everything else goes to the SDK's protocol layer unchanged.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, JSONRPCRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import process from "node:process";

import { paramsProblem } from "./requests.js";

/** The longest line accepted (the SDK's own stdio limit). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

interface Input {
  on(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
}

interface Output {
  write(chunk: string): boolean;
  once(event: string, listener: () => void): unknown;
}

/** Newline-delimited JSON-RPC over a readable and a writable stream (stdin/stdout by default). */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #chunks: Uint8Array[] = [];
  #pending = 0;
  #discarding = false;
  #closed = false;
  #decoder = new TextDecoder();

  constructor(
    private readonly input: Input = process.stdin,
    private readonly output: Output = process.stdout,
  ) {}

  #onData = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    let from = 0;
    for (let nl = bytes.indexOf(10); nl !== -1; nl = bytes.indexOf(10, from)) {
      this.#take(bytes.subarray(from, nl));
      this.#line();
      from = nl + 1;
    }
    if (from < bytes.length) this.#take(bytes.subarray(from));
  };

  #onEnd = () => {
    void this.close();
  };

  #onError = (error: Error) => {
    this.onerror?.(error);
  };

  #take(part: Uint8Array): void {
    if (this.#discarding || part.length === 0) return;
    if (this.#pending + part.length > MAX_LINE_BYTES) {
      this.#chunks = [];
      this.#pending = 0;
      this.#discarding = true; // until the next newline
      return;
    }
    this.#chunks.push(Uint8Array.from(part));
    this.#pending += part.length;
  }

  /** One complete line has arrived. */
  #line(): void {
    if (this.#discarding) {
      this.#discarding = false;
      this.#reply(null, ErrorCode.InvalidRequest, `Invalid Request: message longer than ${MAX_LINE_BYTES} bytes`);
      return;
    }
    const bytes = new Uint8Array(this.#pending);
    let at = 0;
    for (const c of this.#chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    this.#chunks = [];
    this.#pending = 0;
    const text = this.#decoder.decode(bytes).replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.#reply(null, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`);
      return;
    }
    // An id that cannot be echoed back ({"a":1}, 1e400 parsed as Infinity, null) makes the
    // message unanswerable by its id: JSON-RPC's answer is -32600 with id null.
    if (isObject(value) && "id" in value && idOf(value) === undefined) {
      this.#reply(null, ErrorCode.InvalidRequest, "Invalid Request: id must be a string or an integer");
      return;
    }
    const id = idOf(value);
    if (id !== undefined && isObject(value) && typeof value.method === "string") {
      const { params, ...envelope } = value;
      const problem = JSONRPCRequestSchema.safeParse(envelope).success ? paramsProblem(value.method, params) : undefined;
      if (problem) {
        this.#reply(id, ErrorCode.InvalidParams, problem.message, { code: "INVALID_PARAMS", field: problem.field });
        return;
      }
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      // A notification-shaped message without an id gets no reply (JSON-RPC never answers those).
      if (id === undefined && isObject(value) && "method" in value) return;
      this.#reply(id ?? null, ErrorCode.InvalidRequest, "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (e) {
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
    }
  }

  #reply(id: string | number | null, code: number, message: string, data?: Record<string, unknown>): void {
    this.#write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, ...(data ? { data } : {}) } }));
  }

  // Writes go out even after stdin has ended: calls still running then get their answers.
  #write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${line}\n`)) resolve();
      else this.output.once("drain", resolve);
    });
  }

  async start(): Promise<void> {
    this.input.on("data", this.#onData);
    this.input.on("end", this.#onEnd);
    this.input.on("error", this.#onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#write(JSON.stringify(message));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.input.off("data", this.#onData);
    this.input.off("end", this.#onEnd);
    this.input.off("error", this.#onError);
    this.input.pause();
    this.#chunks = [];
    this.onclose?.();
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function idOf(value: unknown): string | number | undefined {
  if (!isObject(value)) return undefined;
  const id = value.id;
  return typeof id === "string" || Number.isInteger(id) ? (id as string | number) : undefined;
}

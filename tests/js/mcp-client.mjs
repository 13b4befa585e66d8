// Shared by the tests that spawn `neuralcut mcp` and speak to it with the official SDK client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { root } from "./helpers.mjs";

const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
export const CLI = join(dist, "cli.js");

/** `neuralcut mcp <args>` as a child process, with an SDK client connected; `pid` is the server's. */
export async function connectMcp(args, { env = {}, name = "neuralcut-test" } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env: { ...process.env, ...env }, stderr: "pipe" });
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** A tool call that must succeed: its structured result. */
export async function callOk(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

/** The JSON-RPC error `promise` is rejected with; fails when it resolves. */
export async function rpcError(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail("expected a JSON-RPC error");
}

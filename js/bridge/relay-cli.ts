// `neuralcut relay`: the control channel for a host editor's page (docs/bridge.md). Prints the
// token; the page connects with neuralcut/bridge, clients with JSON lines or `mcp --bridge`.
import process from "node:process";

import { startRelay } from "./relay.js";
import { TOKEN_ENV } from "./protocol.js";

export const RELAY_USAGE = `usage: neuralcut relay [--port <n>] [--host 127.0.0.1] [--origin <url>]... [--token <t>]

Starts the control channel on 127.0.0.1 (only loopback binds are accepted).
  --port <n>      port (default 9876; 0 picks a free one)
  --host <h>      127.0.0.1 (default), ::1 or localhost
  --origin <url>  a page origin allowed to connect (repeatable; default: any http(s) loopback origin)
  --token <t>     use this token (default: $${TOKEN_ENV}, else a random one, printed)
  -h, --help      this text`;

/** Runs until SIGINT/SIGTERM; returns the exit status on a usage error. */
export async function runRelay(argv: string[]): Promise<number> {
  let port = 9876;
  let host = "127.0.0.1";
  let token = process.env[TOKEN_ENV] || undefined;
  const origins: string[] = [];
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
      const value = () => {
        const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
        if (!v) throw new Error(`${name} needs a value`);
        return v;
      };
      if (a === "-h" || a === "--help") {
        process.stdout.write(`${RELAY_USAGE}\n`);
        return 0;
      } else if (name === "--port") {
        const v = value();
        port = /^\d{1,5}$/.test(v) && Number(v) < 65536 ? Number(v) : NaN;
        if (Number.isNaN(port)) throw new Error(`--port must be a port number, got ${JSON.stringify(v)}`);
      } else if (name === "--host") host = value();
      else if (name === "--origin") origins.push(new URL(value()).origin);
      else if (name === "--token") token = value();
      else throw new Error(`unknown option ${JSON.stringify(a)}`);
    }
  } catch (e) {
    process.stderr.write(`neuralcut relay: ${(e as Error).message}\n\n${RELAY_USAGE}\n`);
    return 2;
  }
  let relay;
  try {
    relay = await startRelay({ port, host, token, origins: origins.length ? origins : undefined, log: (line) => process.stderr.write(`neuralcut relay: ${line}\n`) });
  } catch (e) {
    process.stderr.write(`neuralcut relay: ${(e as Error).message}\n`);
    return (e as Error).message.startsWith("refusing") ? 2 : 1;
  }
  process.stdout.write(
    `control channel on ${relay.host}:${relay.port}\n` +
      `token: ${relay.token}\n` +
      `page:  connectBridge({ url: "${relay.pageUrl}", token, editor, ui })  (neuralcut/bridge)\n` +
      `mcp:   ${TOKEN_ENV}=<token> npx neuralcut mcp --bridge ${relay.host}:${relay.port}\n`,
  );
  await new Promise<void>((done) => {
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
  await relay.close();
  return 0;
}

// `neuralcut relay`: the control channel for a host editor's page (docs/bridge.md). Prints the
// token; the page connects with neuralcut/bridge, clients with JSON lines or `mcp --bridge`.
import process from "node:process";

import { UsageError } from "../errors.js";
import { startRelay } from "./relay.js";
import { TOKEN_ENV } from "./protocol.js";
import { ARGV_TOKEN_WARNING, readTokenFile } from "./token.js";

export const RELAY_USAGE = `usage: neuralcut relay [--port <n>] [--host 127.0.0.1] [--origin <url>]... [--token-file <path>]

Starts the control channel on 127.0.0.1 (only loopback binds are accepted).
  --port <n>      port (default 9876; 0 picks a free one)
  --host <h>      127.0.0.1 (default), ::1 or localhost
  --origin <url>  a page origin allowed to connect (repeatable; default: any http(s) loopback origin)
  --token-file <path>  read the token from this file (mode 600; default: $${TOKEN_ENV},
                  else a random one, printed)
  --token <t>     the token itself: visible to other users in ps, so a warning (use the two above)
  -h, --help      this text`;

/** Runs until SIGINT/SIGTERM; returns the exit status on a usage error. */
export async function runRelay(argv: string[]): Promise<number> {
  let port = 9876;
  let host = "127.0.0.1";
  let token = process.env[TOKEN_ENV] || undefined;
  const origins: string[] = [];
  let tokenFile: string | undefined;
  let argvToken: string | undefined;
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      const name = a.includes("=") ? a.slice(0, a.indexOf("=")) : a;
      const value = () => {
        const v = a.includes("=") ? a.slice(a.indexOf("=") + 1) : argv[++i];
        if (!v) throw new UsageError(`${name} needs a value`);
        return v;
      };
      if (a === "-h" || a === "--help") {
        process.stdout.write(`${RELAY_USAGE}\n`);
        return 0;
      } else if (name === "--port") {
        const v = value();
        port = /^\d{1,5}$/.test(v) && Number(v) < 65536 ? Number(v) : NaN;
        if (Number.isNaN(port)) throw new UsageError(`--port must be a port number, got ${JSON.stringify(v)}`);
      } else if (name === "--host") host = value();
      else if (name === "--origin") origins.push(new URL(value()).origin);
      else if (name === "--token") argvToken = value();
      else if (name === "--token-file") tokenFile = value();
      else throw new UsageError(`unknown option ${JSON.stringify(a)}`);
    }
  } catch (e) {
    process.stderr.write(`neuralcut relay: ${(e as Error).message}\n\n${RELAY_USAGE}\n`);
    return 2;
  }
  if (tokenFile !== undefined && argvToken !== undefined) {
    process.stderr.write(`neuralcut relay: give --token-file or --token, not both\n`);
    return 2;
  }
  if (argvToken !== undefined) {
    process.stderr.write(`neuralcut relay: ${ARGV_TOKEN_WARNING}\n`);
    token = argvToken;
  }
  if (tokenFile !== undefined) {
    try {
      token = await readTokenFile(tokenFile);
    } catch (e) {
      process.stderr.write(`neuralcut relay: ${(e as Error).message}\n`);
      return 2;
    }
  }
  let relay;
  try {
    relay = await startRelay({
      port,
      host,
      token,
      origins: origins.length ? origins : undefined,
      log: (line) => process.stderr.write(`neuralcut relay: ${line}\n`),
    });
  } catch (e) {
    process.stderr.write(`neuralcut relay: ${(e as Error).message}\n`);
    return (e as Error).message.startsWith("refusing") ? 2 : 1;
  }
  process.stdout.write(
    `control channel on ${relay.host}:${relay.port}\n` +
      // A token read from a file stays there: the output may end up in a log.
      `token: ${tokenFile ? `the one in ${tokenFile}` : relay.token}\n` +
      `page:  connectBridge({ url: "${relay.pageUrl}", token, editor, ui })  (neuralcut/bridge)\n` +
      `mcp:   npx neuralcut mcp --bridge ${relay.host}:${relay.port} ${tokenFile ? `--token-file ${tokenFile}` : `(with ${TOKEN_ENV}=<token>, or --token-file <a file holding it>)`}\n`,
  );
  await new Promise<void>((done) => {
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
  await relay.close();
  return 0;
}

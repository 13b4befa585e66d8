// `neuralcut mcp`: the MCP server on stdio over an in-process editor.
//
//   neuralcut mcp                          an empty project
//   neuralcut mcp --demo                   the demo project (js/mcp/demo-project.ts)
//   neuralcut mcp --project p.json         a saved project (editor.project() JSON)
//   neuralcut mcp --project p.json --save  ... written back after every change (temp file, then rename)
//   neuralcut mcp --bridge 127.0.0.1:9876  the live page behind a control channel (js/bridge/mcp.ts)
//
// stdout carries only JSON-RPC; diagnostics go to stderr. Exit status 2 for a usage error,
// 1 when the project cannot be loaded, 0 when the client closes stdin.
import { existsSync, readFileSync } from "node:fs";
import process from "node:process";
import { dirname, resolve } from "node:path";
import { isMainThread } from "node:worker_threads";

import { UsageError } from "../errors.js";
import { createNeuralCutMcpServer } from "./server.js";
import { openSession, saveSession, type Session } from "./session.js";
import { headlessRenderPreview } from "../render-headless.js";
import { sessionMediaTools } from "../media-tools-node.js";
import { createExportJobs } from "./export-tools.js";
import { LineTransport } from "./transport.js";
import { relayToWorker } from "./relay.js";

export const MCP_USAGE = `usage: neuralcut mcp [--demo | --project <file.json> [--save] | --bridge <host:port> [--token-file <path>]]

Serves the NeuralCut tools over MCP on stdio.
  --demo              open the demo project
  --project <file>    open a saved project (JSON from editor.project())
  --save              write the project back to --project after every change
                      (a missing file is created)
  --bridge <host:port> drive the page behind a control channel (docs/bridge.md)
  --token-file <path> read the relay's token from this file (mode 600; default:
                      $NEURALCUT_BRIDGE_TOKEN)
  --token <t>         the token itself: visible to other users in ps, so a warning
  --whisper <dir>     offer transcribe_video with local Whisper, its model folders in
                      <dir> (docs/transcribe.md); WAV media only in Node
  --whisper-model <name>  the folder in <dir> (default whisper-small)
  --whisper-dtype <d> transformers.js dtype (default q8)
  -h, --help          this text`;

export interface McpArgs {
  demo: boolean;
  project?: string;
  save: boolean;
  bridge?: string;
  token?: string;
  tokenFile?: string;
  whisper?: string;
  whisperModel?: string;
  whisperDtype?: string;
}

/** Parses the arguments after `mcp`; throws a UsageError (`USAGE`) naming what is wrong. */
export function parseMcpArgs(argv: string[]): McpArgs | "help" {
  const out: McpArgs = { demo: false, save: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-h" || a === "--help") return "help";
    if (a === "--demo") out.demo = true;
    else if (a === "--save") out.save = true;
    else if (a === "--project" || a.startsWith("--project=")) {
      const value = a === "--project" ? argv[++i] : a.slice("--project=".length);
      if (!value) throw new UsageError("--project needs a file path");
      out.project = value;
    } else if (/^--(bridge|token|token-file)(=|$)/.test(a)) {
      const name = a.startsWith("--bridge") ? "--bridge" : a.startsWith("--token-file") ? "--token-file" : "--token";
      const value = a === name ? argv[++i] : a.slice(name.length + 1);
      if (!value)
        throw new UsageError(
          name === "--bridge" ? "--bridge needs host:port (e.g. 127.0.0.1:9876)" : `${name} needs ${name === "--token" ? "the relay's token" : "a file path"}`,
        );
      if (name === "--bridge") out.bridge = value;
      else if (name === "--token-file") out.tokenFile = value;
      else out.token = value;
    } else if (/^--whisper(-model|-dtype)?(=|$)/.test(a)) {
      const name = a.startsWith("--whisper-model") ? "--whisper-model" : a.startsWith("--whisper-dtype") ? "--whisper-dtype" : "--whisper";
      const value = a === name ? argv[++i] : a.slice(name.length + 1);
      if (!value) throw new UsageError(`${name} needs ${name === "--whisper" ? "a directory" : "a value"}`);
      if (name === "--whisper") out.whisper = value;
      else if (name === "--whisper-model") out.whisperModel = value;
      else out.whisperDtype = value;
    } else throw new UsageError(`unknown option ${JSON.stringify(a)}`);
  }
  if (out.bridge && (out.demo || out.project)) throw new UsageError("--bridge drives the page's project: it cannot be combined with --demo or --project");
  if ((out.token || out.tokenFile) && !out.bridge) throw new UsageError(`${out.token ? "--token" : "--token-file"} goes with --bridge`);
  if (out.token && out.tokenFile) throw new UsageError("give --token-file or --token, not both");
  if (out.demo && out.project) throw new UsageError("--demo and --project cannot be combined");
  if (out.save && !out.project) throw new UsageError("--save needs --project <file>");
  if ((out.whisperModel || out.whisperDtype) && !out.whisper) throw new UsageError("--whisper-model and --whisper-dtype go with --whisper <dir>");
  if (out.whisper && out.bridge) throw new UsageError("--whisper serves this session's media: it cannot be combined with --bridge");
  return out;
}

export function packageVersion(): string {
  try {
    return JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/** Runs the server until stdin closes. */
export async function runMcp(argv: string[]): Promise<void> {
  let args: McpArgs | "help";
  try {
    args = parseMcpArgs(argv);
  } catch (e) {
    process.stderr.write(`neuralcut mcp: ${(e as Error).message}\n\n${MCP_USAGE}\n`);
    process.exit(2);
  }
  if (args === "help") {
    process.stdout.write(`${MCP_USAGE}\n`);
    return;
  }
  // stdout is the protocol channel: anything logged goes to stderr.
  console.log = console.info = console.debug = console.error;
  // The server runs in a worker, so that ping is answered while the engine works (js/mcp/relay.ts).
  if (isMainThread) return relayToWorker(argv);
  if (args.bridge) {
    const { runBridgeMcp } = await import("../bridge/mcp.js");
    return runBridgeMcp(args.bridge, { token: args.token, tokenFile: args.tokenFile }, packageVersion());
  }
  let session: Session;
  try {
    session = await openSession({ demo: args.demo, project: args.project, createMissing: args.save });
  } catch (e) {
    process.stderr.write(`neuralcut mcp: cannot open the project: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const savePath = args.save && args.project ? resolve(args.project) : undefined;
  if (savePath && !existsSync(savePath)) saveSession(session, savePath);
  // Nothing a client sends may end the session: report stray errors and keep serving.
  process.on("uncaughtException", (e: unknown) => process.stderr.write(`neuralcut mcp: internal error: ${String((e as Error)?.stack ?? e)}\n`));
  process.on("unhandledRejection", (e: unknown) => process.stderr.write(`neuralcut mcp: internal error: ${String((e as Error)?.stack ?? e)}\n`));
  // render_preview draws with the package's compositor in headless Chromium, started on first use.
  const preview = headlessRenderPreview(session.editor, {
    projectDir: args.project ? dirname(resolve(args.project)) : undefined,
    paths: session.paths,
  });
  // detect_silences and detect_scenes: a WAV in Node, anything else in headless Chromium on first use.
  const media = sessionMediaTools(session.editor, { projectDir: args.project ? dirname(resolve(args.project)) : undefined, paths: session.paths });
  // transcribe_video with local Whisper when asked for: transformers.js loads on the first call.
  const whisper = args.whisper
    ? (await import("../whisper/session-tool.js")).sessionTranscribeTool(session.editor, {
        modelPath: resolve(args.whisper),
        model: args.whisperModel,
        dtype: args.whisperDtype,
        device: "cpu",
        projectDir: args.project ? dirname(resolve(args.project)) : undefined,
        paths: session.paths,
      })
    : undefined;
  // export_video runs the package's exportVideo in headless Chromium, started on first use.
  const exportJobs = createExportJobs(session, { projectDir: args.project ? dirname(resolve(args.project)) : undefined });
  const server = createNeuralCutMcpServer(session.editor, {
    exportJobs,
    savePath,
    version: packageVersion(),
    paths: session.paths,
    hostTools: [preview.tool, ...media.tools, ...(whisper ? [whisper.tool] : [])],
    // The unlisted panic tool of the tests (docs/mcp.md, "Panics"); never on by default.
    testOnlyPanic: process.env.NEURALCUT_TEST_ONLY_PANIC === "1",
  });
  server.onerror = (e) => process.stderr.write(`neuralcut mcp: ${e.message}\n`);
  const transport = new LineTransport();
  const closed = new Promise<void>((done) => {
    server.onclose = () => done();
  });
  await server.connect(transport);
  process.stderr.write(`neuralcut mcp: serving ${args.demo ? "the demo project" : args.project ? resolve(args.project) : "an empty project"} on stdio\n`);
  await closed;
  await preview.close();
  await media.close();
  await whisper?.close();
  await exportJobs.close();
}

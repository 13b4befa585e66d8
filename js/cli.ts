#!/usr/bin/env node
// The package's command (`npx neuralcut <command>`): the MCP server, and every tool one shell
// call away (docs/cli.md). Options go anywhere; results are JSON on stdout; exit status 0 on
// success, 1 when a tool fails (or the project cannot be opened or saved), 2 on a usage error.
// The verbs run tools through the same code as the MCP server (js/mcp/core.ts).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";

import { UsageError } from "./errors.js";
import { commandList, runTool, sessionCatalog, toolErrors, type Outcome } from "./mcp/core.js";
import { openSession, saveSession, writeAtomic, type Session } from "./mcp/session.js";
import { headlessRenderPreview } from "./render-headless.js";
import { sessionMediaTools } from "./media-tools-node.js";
import type { ToolInfo } from "./types.js";

const USAGE = `usage: neuralcut [options] <command> [arguments]

Commands:
  tools [filter] [--json]          list the tools: id, title, enabled now (--json: command_list's JSON)
  describe <tool>                  one tool: arguments, result, errors, annotations, enabled now
  inspect [project|assets|timeline]
                                   the document (doc_inspect), its assets or its timeline
  exec <tool> key=value ...        run one tool; values are JSON when they parse, else strings;
                                   dotted keys nest (params.intensity=30)
  exec <tool> '{"key": ...}'       ... with the arguments as one JSON object
  run <script.jsonl | ->           one {"tool","args"} per line (- reads stdin); prints one
                                   {"line","tool","ok","result"|"error"} line each and stops at
                                   the first failure unless --keep-going
  import <paths...>                import media files (media_import; relative paths allowed)
  render-frame <seconds> -o <file.png> [--width <px>]
  render-frame --times <s,s,...> -o <file.png> [--width <px>]
                                   draw the frame at a time with the package's compositor in
                                   headless Chromium (render_preview) into a PNG; prints what
                                   was drawn
  export <out.mp4|out.webm>        render the timeline to a video file (neuralcut export --help)
  mcp                              serve the tools over MCP on stdio (neuralcut mcp --help)
  relay                            the control channel a page connects to (neuralcut relay --help)
  help                             this text

Options (anywhere on the line):
  --demo                open the demo project
  --project <file>      open a saved project (JSON from editor.project())
  --save                write the project back to --project when the command is done
                        (a missing file is created)
  --save-as <file>      write the project to <file> when the command is done
  --json                tools: print JSON
  --keep-going          run: go on after a failing line
  -o, --output <file>   render-frame: the PNG to write
  --times <s,s,...>     render-frame: up to 16 times, drawn as one labelled contact sheet
  --width <px>          render-frame: image width, 16 to 1920 (default 960; the height keeps
                        the project's aspect)
  -h, --help            this text

Exit status: 0 success, 1 a tool failed or the project could not be opened or saved,
2 usage error. render-frame needs Chromium (NEURALCUT_CHROMIUM names it; docs/render.md).`;

const VERBS = ["tools", "describe", "inspect", "exec", "run", "import", "render-frame"];

interface Cli {
  verb?: string;
  positional: string[];
  demo: boolean;
  project?: string;
  save: boolean;
  saveAs?: string;
  json: boolean;
  keepGoing: boolean;
  help: boolean;
  output?: string;
  width?: string;
  times?: string;
}

/** Splits the command line: options anywhere, `--` ends them. */
export function parseCli(argv: string[]): Cli {
  const out: Cli = { positional: [], demo: false, save: false, json: false, keepGoing: false, help: false };
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const valueFor = (name: string) => {
      const v = a === name ? argv[++i] : a.slice(name.length + 1);
      if (v === undefined || v === "")
        throw new UsageError(`${name} needs ${name === "--width" ? "a number" : name === "--times" ? "times in seconds, comma-separated" : "a file path"}`);
      return v;
    };
    if (options && a === "--") options = false;
    else if (options && (a === "-h" || a === "--help")) out.help = true;
    else if (options && a === "--demo") out.demo = true;
    else if (options && a === "--save") out.save = true;
    else if (options && a === "--json") out.json = true;
    else if (options && a === "--keep-going") out.keepGoing = true;
    else if (options && (a === "--project" || a.startsWith("--project="))) out.project = valueFor("--project");
    else if (options && (a === "--save-as" || a.startsWith("--save-as="))) out.saveAs = valueFor("--save-as");
    else if (options && a === "-o") out.output = valueFor("-o");
    else if (options && (a === "--output" || a.startsWith("--output="))) out.output = valueFor("--output");
    else if (options && (a === "--width" || a.startsWith("--width="))) out.width = valueFor("--width");
    else if (options && (a === "--times" || a.startsWith("--times="))) out.times = valueFor("--times");
    else if (options && a.startsWith("--") && a.length > 2) throw new UsageError(`unknown option ${JSON.stringify(a)}`);
    else if (out.verb === undefined) out.verb = a;
    else out.positional.push(a);
  }
  if (out.demo && out.project) throw new UsageError("--demo and --project cannot be combined");
  if (out.save && !out.project) throw new UsageError("--save needs --project <file> (or use --save-as <file>)");
  return out;
}

/** `key=value` pairs as an object: a value is JSON when it parses, else a string; dotted keys nest. */
export function parseAssignments(pairs: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new UsageError(`expected key=value, got ${JSON.stringify(pair)}`);
    const path = pair.slice(0, eq).split(".");
    if (path.some((k) => k === "")) throw new UsageError(`empty key in ${JSON.stringify(pair)}`);
    const raw = pair.slice(eq + 1);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    let into = args;
    for (const key of path.slice(0, -1)) {
      const next = into[key];
      if (next === undefined) into = into[key] = {} as Record<string, unknown>;
      else if (typeof next === "object" && next !== null && !Array.isArray(next)) into = next as Record<string, unknown>;
      else throw new UsageError(`${JSON.stringify(pair)}: ${key} already has a value`);
    }
    const last = path[path.length - 1];
    if (last in into) throw new UsageError(`${JSON.stringify(pair)}: ${path.join(".")} is given twice`);
    into[last] = value;
  }
  return args;
}

/** exec's arguments: one JSON object, or key=value pairs. */
function execArgs(rest: string[]): Record<string, unknown> {
  if (rest.length === 1 && rest[0].trimStart().startsWith("{")) {
    let value: unknown;
    try {
      value = JSON.parse(rest[0]);
    } catch (e) {
      throw new UsageError(`the arguments are not JSON: ${(e as Error).message}`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError("the arguments must be a JSON object");
    return value as Record<string, unknown>;
  }
  return parseAssignments(rest);
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** A tool failure: its error value on stdout, its message on stderr. Returns the exit status. */
function reportFailure(out: Outcome & { ok: false }): number {
  print(out.error);
  process.stderr.write(`neuralcut: ${out.error.error}\n`);
  // A call that names no such tool or argument is the caller's mistake (MCP's -32602).
  return out.error.code === "UNKNOWN_TOOL" || out.error.code === "UNKNOWN_ARGUMENT" ? 2 : 1;
}

function findTool(catalog: readonly ToolInfo[], name: string | undefined, verb: string): ToolInfo {
  if (!name) throw new UsageError(`${verb} needs a tool name (neuralcut tools lists them)`);
  const t = catalog.find((c) => c.name === name);
  if (!t) throw new UsageError(`unknown tool ${JSON.stringify(name)} (neuralcut tools lists them)`);
  return t;
}

async function readScript(source: string): Promise<string> {
  if (source !== "-") {
    try {
      return readFileSync(resolve(source), "utf8");
    } catch (e) {
      throw new UsageError(`cannot read the script ${source}: ${(e as Error).message}`);
    }
  }
  let text = "";
  process.stdin.on("data", (chunk: Uint8Array | string) => {
    text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  await new Promise<void>((done) => process.stdin.on("end", () => done()));
  return text;
}

/** run: one JSON line per script line. Returns the exit status. */
async function runScript(session: Session, catalog: readonly ToolInfo[], text: string, keepGoing: boolean): Promise<number> {
  let status = 0;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const report = (tool: unknown, out: Outcome) =>
      process.stdout.write(`${JSON.stringify({ line: i + 1, tool, ok: out.ok, ...(out.ok ? { result: out.result } : { error: out.error }) })}\n`);
    let entry: unknown;
    let out: Outcome;
    try {
      entry = JSON.parse(line);
    } catch (e) {
      entry = undefined;
      out = { ok: false, error: { error: `line ${i + 1} is not JSON: ${(e as Error).message}`, code: "INVALID_LINE" } };
    }
    const obj = entry as Record<string, unknown> | undefined;
    if (entry === undefined) {
      // out is set above
    } else if (
      typeof entry !== "object" ||
      entry === null ||
      Array.isArray(entry) ||
      typeof obj!.tool !== "string" ||
      Object.keys(obj!).some((k) => k !== "tool" && k !== "args")
    ) {
      out = { ok: false, error: { error: `line ${i + 1} must be {"tool": name, "args": {...}}`, code: "INVALID_LINE" } };
    } else {
      out = await runTool(session, catalog, obj!.tool as string, obj!.args ?? {});
    }
    report(obj?.tool ?? null, out!);
    if (!out!.ok) {
      status = 1;
      if (!keepGoing) break;
    }
  }
  return status;
}

/** Where the command word is: the first argument that is neither an option nor an option's value. */
function verbIndex(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    if (["--project", "--save-as", "-o", "--output", "--width", "--times", "--start", "--end", "--format"].includes(argv[i])) i++;
    else if (argv[i] === "--") return i + 1 < argv.length ? i + 1 : -1;
    else if (!argv[i].startsWith("-")) return i;
  }
  return -1;
}

/** Runs the verb; returns the exit status. */
async function main(argv: string[]): Promise<number> {
  // `mcp` keeps its own parser and messages; options before it are handed over too.
  const mcpAt = verbIndex(argv);
  if (mcpAt !== -1 && argv[mcpAt] === "mcp") {
    const { runMcp } = await import("./mcp/main.js");
    await runMcp([...argv.slice(0, mcpAt), ...argv.slice(mcpAt + 1)]);
    return 0;
  }
  if (mcpAt !== -1 && argv[mcpAt] === "relay") {
    const { runRelay } = await import("./bridge/relay-cli.js");
    return runRelay(argv.slice(mcpAt + 1));
  }
  if (mcpAt !== -1 && argv[mcpAt] === "export") {
    const { runExportCli } = await import("./export-cli.js");
    return runExportCli([...argv.slice(0, mcpAt), ...argv.slice(mcpAt + 1)]);
  }
  let cli: Cli;
  try {
    cli = parseCli(argv);
  } catch (e) {
    process.stderr.write(`neuralcut: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { verb, positional } = cli;
  if (cli.help || verb === undefined || verb === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!VERBS.includes(verb)) {
    process.stderr.write(`neuralcut: unknown command ${JSON.stringify(verb)}\n\n${USAGE}\n`);
    return 2;
  }
  if ((cli.output !== undefined || cli.width !== undefined || cli.times !== undefined) && verb !== "render-frame") {
    process.stderr.write(
      `neuralcut: ${cli.output !== undefined ? "-o" : cli.width !== undefined ? "--width" : "--times"} is for render-frame only\n\n${USAGE}\n`,
    );
    return 2;
  }
  let session: Session;
  try {
    session = await openSession({ demo: cli.demo, project: cli.project, createMissing: cli.save });
  } catch (e) {
    process.stderr.write(`neuralcut: cannot open the project: ${(e as Error).message}\n`);
    return 1;
  }
  // render_preview (and render-frame) draw in headless Chromium, started only when asked.
  const preview = headlessRenderPreview(session.editor, {
    projectDir: cli.project ? dirname(resolve(cli.project)) : undefined,
    paths: session.paths,
  });
  const media = sessionMediaTools(session.editor, { projectDir: cli.project ? dirname(resolve(cli.project)) : undefined, paths: session.paths });
  session.hostTools = [preview.tool, ...media.tools];
  const catalog = sessionCatalog(session.editor, session.hostTools);
  let status: number;
  try {
    status = await runVerb(cli, session, catalog, verb, positional, preview);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`neuralcut: ${e.message} (neuralcut help prints the reference)\n`);
    return 2;
  } finally {
    await preview.close();
    await media.close();
  }
  // What was committed is saved even when a later step failed (each step is its own change).
  const target = cli.saveAs ?? (cli.save ? cli.project : undefined);
  if (target) {
    try {
      saveSession(session, target);
    } catch (e) {
      process.stderr.write(`neuralcut: cannot save the project to ${target}: ${(e as Error).message}\n`);
      return 1;
    }
  }
  return status;
}

async function runVerb(
  cli: Cli,
  session: Session,
  catalog: readonly ToolInfo[],
  verb: string,
  positional: string[],
  preview: ReturnType<typeof headlessRenderPreview>,
): Promise<number> {
  const atMost = (n: number) => {
    if (positional.length > n) throw new UsageError(`${verb}: unexpected ${JSON.stringify(positional[n])}`);
  };
  const outcome = (out: Outcome): number => {
    if (!out.ok) return reportFailure(out);
    print(out.result);
    return 0;
  };
  switch (verb) {
    case "tools": {
      atMost(1);
      const commands = commandList(session, catalog, positional[0]);
      if (cli.json) print({ commands });
      else {
        const width = Math.max(0, ...commands.map((c) => String(c.id).length));
        for (const c of commands) {
          const state = c.enabled ? "" : `  (disabled: ${c.reason})`;
          process.stdout.write(`${String(c.id).padEnd(width)}  ${c.title}${state}\n`);
        }
      }
      return 0;
    }
    case "describe": {
      atMost(1);
      const t = findTool(catalog, positional[0], "describe");
      const [entry] = commandList(session, [t]);
      print({
        id: t.name,
        title: t.title,
        description: t.description,
        parameters: t.inputSchema,
        result: t.outputSchema,
        errors: toolErrors(t.name),
        annotations: t.annotations,
        enabled: entry.enabled,
        ...(entry.reason ? { reason: entry.reason } : {}),
      });
      return 0;
    }
    case "inspect": {
      atMost(1);
      const what = positional[0] ?? "project";
      const tool = { project: "doc_inspect", assets: "list_project_assets", timeline: "list_timeline" }[what];
      if (!tool) throw new UsageError(`inspect takes project, assets or timeline, not ${JSON.stringify(what)}`);
      return outcome(await runTool(session, catalog, tool, {}));
    }
    case "exec": {
      const t = findTool(catalog, positional[0], "exec");
      const out = await runTool(session, catalog, t.name, execArgs(positional.slice(1)));
      // A command_batch that ran but had failing steps is a failure too.
      if (out.ok && (t.name as string) === "command_batch" && (out.result.failed as number) > 0) {
        print(out.result);
        return 1;
      }
      return outcome(out);
    }
    case "run": {
      if (positional.length !== 1) throw new UsageError("run takes one script file, or - for stdin");
      return runScript(session, catalog, await readScript(positional[0]), cli.keepGoing);
    }
    case "import": {
      if (positional.length === 0) throw new UsageError("import needs at least one file");
      return outcome(await runTool(session, catalog, "media_import", { paths: positional.map((p) => resolve(p)) }));
    }
    case "render-frame": {
      atMost(1);
      let when: { time: number } | { times: number[] };
      if (cli.times !== undefined) {
        if (positional.length) throw new UsageError("render-frame takes a time or --times, not both");
        const times = cli.times.split(",").map((t) => (t.trim() === "" ? NaN : Number(t)));
        if (!times.every(Number.isFinite)) throw new UsageError(`--times takes seconds separated by commas, not ${JSON.stringify(cli.times)}`);
        when = { times };
      } else {
        const seconds = positional[0] === undefined ? NaN : Number(positional[0]);
        if (positional[0] === undefined || positional[0].trim() === "" || !Number.isFinite(seconds)) {
          throw new UsageError("render-frame needs a time in seconds (render-frame 2.5 -o frame.png) or --times");
        }
        when = { time: seconds };
      }
      if (!cli.output) throw new UsageError("render-frame needs -o <file.png>");
      let width: number | undefined;
      if (cli.width !== undefined) {
        width = Number(cli.width);
        if (cli.width.trim() === "" || !Number.isFinite(width)) throw new UsageError(`--width takes a number of pixels, not ${JSON.stringify(cli.width)}`);
      }
      const out = await preview.render({ ...when, ...(width !== undefined ? { width } : {}) });
      if (!out.ok) return reportFailure(out);
      const target = resolve(cli.output);
      try {
        writeAtomic(target, out.png!);
      } catch (e) {
        process.stderr.write(`neuralcut: cannot write ${target}: ${(e as Error).message}\n`);
        return 1;
      }
      print({ ...out.result, path: target });
      return 0;
    }
  }
  throw new UsageError(`unknown command ${JSON.stringify(verb)}`);
}

process.exitCode = await main(process.argv.slice(2));

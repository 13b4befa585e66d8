// `neuralcut export <file>`: the project's timeline to a video file, through the package's
// exportVideo in headless Chromium (js/export-headless.ts). Progress goes to stderr, the result
// as JSON to stdout. Ctrl-C stops the export and deletes the partial file. docs/export.md.
import { dirname, resolve } from "node:path";
import process from "node:process";

import { UsageError } from "./errors.js";
import { createHeadlessExporter } from "./export-headless.js";
import { mediaLocations } from "./render-headless.js";
import { openSession, type Session } from "./mcp/session.js";
import type { ExportFormat } from "./export.js";

export const EXPORT_USAGE = `usage: neuralcut (--project <file.json> | --demo) export <out.mp4 | out.webm> [options]

Renders the timeline to a video file: mp4 (H.264; AAC or Opus) or webm (VP9, AV1 or VP8; Opus),
at the project's size and frame rate, with its sound mixed in. Needs Chromium (NEURALCUT_CHROMIUM).
  --format mp4|webm     default: from the file name
  --start <seconds>     default 0
  --end <seconds>       default the end of the timeline
  --width <pixels>      default the project's width (the height keeps the aspect)
  --quiet               no progress on stderr
Exit status: 0 written, 1 the export failed (nothing is left at the path), 2 usage error,
130 interrupted (nothing is left at the path).`;

interface ExportCli {
  out?: string;
  project?: string;
  demo: boolean;
  format?: ExportFormat;
  start?: number;
  end?: number;
  width?: number;
  quiet: boolean;
}

/** Parses the arguments around `export` (the verb itself removed). */
export function parseExportArgs(argv: string[]): ExportCli | "help" {
  const out: ExportCli = { demo: false, quiet: false };
  const seconds = (name: string, v: string | undefined) => {
    const n = Number(v);
    if (v === undefined || v === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`${name} needs a number of seconds, 0 or more`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => inline ?? argv[++i];
    if (flag === "-h" || flag === "--help") return "help";
    else if (flag === "--demo") out.demo = true;
    else if (flag === "--quiet") out.quiet = true;
    else if (flag === "--project") {
      out.project = value();
      if (!out.project) throw new UsageError("--project needs a file path");
    } else if (flag === "--format") {
      const f = value();
      if (f !== "mp4" && f !== "webm") throw new UsageError(`--format takes mp4 or webm, not ${JSON.stringify(f)}`);
      out.format = f;
    } else if (flag === "--start") out.start = seconds("--start", value());
    else if (flag === "--end") out.end = seconds("--end", value());
    else if (flag === "--width") {
      const w = Number(value());
      if (!Number.isInteger(w) || w < 16 || w > 7680) throw new UsageError("--width needs a whole number of pixels from 16 to 7680");
      out.width = w;
    } else if (a.startsWith("-") && a.length > 1) throw new UsageError(`unknown option ${JSON.stringify(a)}`);
    else if (out.out === undefined) out.out = a;
    else throw new UsageError(`export takes one output file, got ${JSON.stringify(a)} too`);
  }
  if (out.demo && out.project) throw new UsageError("--demo and --project cannot be combined");
  if (!out.out) throw new UsageError("export needs the output file (out.mp4 or out.webm)");
  if (out.start !== undefined && out.end !== undefined && out.end <= out.start) throw new UsageError("--end must be after --start");
  const ext = out.out.toLowerCase().split(".").pop();
  out.format ??= ext === "webm" ? "webm" : ext === "mp4" ? "mp4" : undefined;
  if (!out.format) throw new UsageError(`cannot tell the format from ${out.out}: name it .mp4 or .webm, or give --format`);
  return out;
}

/** Runs `neuralcut export`; returns the exit status. */
export async function runExportCli(argv: string[]): Promise<number> {
  let cli: ExportCli | "help";
  try {
    cli = parseExportArgs(argv);
  } catch (e) {
    process.stderr.write(`neuralcut export: ${(e as Error).message}\n\n${EXPORT_USAGE}\n`);
    return 2;
  }
  if (cli === "help") {
    process.stdout.write(`${EXPORT_USAGE}\n`);
    return 0;
  }
  let session: Session;
  try {
    session = await openSession({ demo: cli.demo, project: cli.project });
  } catch (e) {
    process.stderr.write(`neuralcut export: cannot open the project: ${(e as Error).message}\n`);
    return 1;
  }
  const path = resolve(cli.out!);
  const project = session.editor.project();
  const media = mediaLocations(session.editor, project, { projectDir: cli.project ? dirname(resolve(cli.project)) : undefined, paths: session.paths });
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  let lastShown = 0;
  let exporter;
  try {
    exporter = await createHeadlessExporter();
    const result = await exporter.export(
      project,
      media,
      { path, format: cli.format!, start: cli.start, end: cli.end, width: cli.width },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (cli.quiet) return;
          const now = Date.now();
          if (now - lastShown < 1000 && p.framesDone < p.totalFrames) return;
          lastShown = now;
          process.stderr.write(`neuralcut export: frame ${p.framesDone} of ${p.totalFrames} (${Math.round(p.progress * 100)}%)\n`);
        },
      },
    );
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (e) {
    if (controller.signal.aborted) {
      process.stderr.write(`neuralcut export: interrupted; nothing was written to ${path}\n`);
      return 130;
    }
    process.stderr.write(`neuralcut export: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  } finally {
    await exporter?.close();
    session.editor.dispose();
  }
}

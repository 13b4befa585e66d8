// export_video, jobs_list and jobs_cancel for `neuralcut mcp`: the timeline to a video file through
// the package's exportVideo in headless Chromium (js/export-headless.ts). An export is a job; with
// `wait` the call answers when the file is written (progress notifications on the way, a
// notifications/cancelled stops it and deletes the partial file), without it the call answers
// {job, path} at once. docs/export.md.
import { existsSync } from "node:fs";
import { dirname, extname, isAbsolute } from "node:path";

import type { ToolInfo } from "../types.js";
import type { ExportFormat } from "../export.js";
import { createHeadlessExporter, type HeadlessExporter, type HeadlessExportArgs, type HeadlessExportProgress } from "../export-headless.js";
import { mediaLocations } from "../render-headless.js";
import { hostToolArgs, hostToolInfo, toolError, type HostToolContext } from "../host-tools.js";
import type { Outcome } from "./core.js";
import type { Session } from "./session.js";

// Their catalog entries come from the Rust registry's HOST_TOOLS (generated), like media_import's.
export const EXPORT_VIDEO_TOOL: ToolInfo = hostToolInfo("export_video");
export const JOBS_LIST_TOOL: ToolInfo = hostToolInfo("jobs_list");
export const JOBS_CANCEL_TOOL: ToolInfo = hostToolInfo("jobs_cancel");

export const EXPORT_TOOLS: readonly ToolInfo[] = [EXPORT_VIDEO_TOOL, JOBS_LIST_TOOL, JOBS_CANCEL_TOOL];

/** What the MCP request handler hands over: its cancellation and a way to send notifications. */
export type RequestContext = HostToolContext;

interface Job {
  job: string;
  path: string;
  format: ExportFormat;
  state: "running" | "done" | "failed" | "cancelled";
  framesDone: number;
  totalFrames: number;
  progress: number;
  error?: string;
  result?: Record<string, unknown>;
  controller: AbortController;
  done: Promise<void>;
}

/** Progress notifications go out at most this often (plus the last one). */
export const PROGRESS_INTERVAL_MS = 100;

const fail = (error: string, code: string, data: Record<string, unknown> = {}): Outcome => ({ ok: false, error: toolError(error, code, data) });

/** The engine's strict rule from the tool's catalog schema (js/host-tools.ts): the arguments, or the failure. */
function strict(name: "export_video" | "jobs_list" | "jobs_cancel", input: unknown): Outcome | Record<string, unknown> {
  const checked = hostToolArgs(name, input);
  return "error" in checked ? { ok: false, error: checked.error } : checked.args;
}
const isOutcome = (v: unknown): v is Outcome => typeof v === "object" && v !== null && "ok" in v && (v as { ok: unknown }).ok === false;

/** export_video's arguments checked, or the error. */
function exportArgs(input: Record<string, unknown>): HeadlessExportArgs | Outcome {
  const { path, format, start, end, width } = input;
  if (typeof path !== "string" || path === "") return fail("path must be an absolute file path", "INVALID_ARGUMENT", { argument: "path" });
  if (!isAbsolute(path)) return fail(`Path must be absolute: ${path}`, "INVALID_ARGUMENT", { argument: "path" });
  if (!existsSync(dirname(path))) return fail(`Folder not found: ${dirname(path)}`, "INVALID_ARGUMENT", { argument: "path" });
  const ext = extname(path).toLowerCase().slice(1);
  if (format !== undefined && format !== "mp4" && format !== "webm")
    return fail(`format must be "mp4" or "webm", got ${JSON.stringify(format)}`, "INVALID_ARGUMENT", { argument: "format" });
  const chosen = (format ?? (ext === "webm" ? "webm" : ext === "mp4" ? "mp4" : undefined)) as ExportFormat | undefined;
  if (!chosen) return fail(`Cannot tell the format from ${path}: name it .mp4 or .webm, or give format`, "INVALID_ARGUMENT", { argument: "format" });
  for (const [k, v] of [
    ["start", start],
    ["end", end],
  ] as const) {
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0))
      return fail(`${k} must be a number of seconds, 0 or more`, "INVALID_ARGUMENT", { argument: k });
  }
  if (typeof start === "number" && typeof end === "number" && end <= start)
    return fail(`end (${end}) must be after start (${start})`, "INVALID_ARGUMENT", { argument: "end" });
  if (width !== undefined && (!Number.isInteger(width) || (width as number) < 16 || (width as number) > 7680))
    return fail("width must be a whole number of pixels from 16 to 7680", "INVALID_ARGUMENT", { argument: "width" });
  return { path, format: chosen, start: start as number | undefined, end: end as number | undefined, width: width as number | undefined };
}

const view = (j: Job) => {
  const { controller, done, ...rest } = j;
  void controller;
  void done;
  return rest as unknown as Record<string, unknown>;
};

/** The export tools of one MCP session; `close` stops running jobs and Chromium. */
export function createExportJobs(session: Session, options: { projectDir?: string; chromiumPath?: string; exporter?: () => Promise<HeadlessExporter> } = {}) {
  const jobs = new Map<string, Job>();
  let next = 1;
  let started: Promise<HeadlessExporter> | undefined;
  const exporter = () => {
    started ??= (options.exporter ?? (() => createHeadlessExporter({ chromiumPath: options.chromiumPath })))();
    started.catch(() => (started = undefined));
    return started;
  };

  function start(args: HeadlessExportArgs, context: RequestContext): Job {
    const controller = new AbortController();
    const job: Job = {
      job: `j${next++}`,
      path: args.path,
      format: args.format,
      state: "running",
      framesDone: 0,
      totalFrames: 0,
      progress: 0,
      controller,
      done: Promise.resolve(),
    };
    jobs.set(job.job, job);
    const project = session.editor.project();
    const media = mediaLocations(session.editor, project, { projectDir: options.projectDir, paths: session.paths });
    let last = 0;
    const onProgress = (p: HeadlessExportProgress) => {
      Object.assign(job, { framesDone: p.framesDone, totalFrames: p.totalFrames, progress: p.progress });
      const now = Date.now();
      if (context.progressToken === undefined || !context.notify) return;
      if (now - last < PROGRESS_INTERVAL_MS && p.framesDone < p.totalFrames) return;
      last = now;
      context
        .notify({
          method: "notifications/progress",
          params: { progressToken: context.progressToken, progress: p.framesDone, total: p.totalFrames, message: `frame ${p.framesDone} of ${p.totalFrames}` },
        })
        .catch(() => {});
    };
    job.done = (async () => {
      try {
        const out = await (await exporter()).export(project, media, args, { signal: controller.signal, onProgress });
        job.result = out as unknown as Record<string, unknown>;
        job.state = "done";
      } catch (e) {
        if (controller.signal.aborted) job.state = "cancelled";
        else {
          job.state = "failed";
          job.error = e instanceof Error ? e.message : String(e);
        }
      }
    })();
    return job;
  }

  async function call(name: string, input: unknown, context: RequestContext = {}): Promise<Outcome> {
    if (name === EXPORT_VIDEO_TOOL.name) {
      const args = strict(EXPORT_VIDEO_TOOL.name as "export_video", input);
      if (isOutcome(args)) return args;
      if (args.wait !== undefined && typeof args.wait !== "boolean") return fail("wait must be a boolean", "INVALID_ARGUMENT", { argument: "wait" });
      const checked = exportArgs(args);
      if (isOutcome(checked)) return checked;
      const running = [...jobs.values()].find((j) => j.state === "running" && j.path === checked.path);
      if (running) return fail(`Job ${running.job} is already exporting to ${checked.path}`, "EXPORT_BUSY", { job: running.job });
      const job = start(checked, context);
      if (!args.wait) return { ok: true, result: view(job) };
      // A cancelled request (notifications/cancelled) cancels its job.
      const cancel = () => job.controller.abort();
      context.signal?.addEventListener("abort", cancel, { once: true });
      await job.done;
      context.signal?.removeEventListener("abort", cancel);
      if (job.state === "failed") return fail(job.error ?? "the export failed", "EXPORT_FAILED", { job: job.job });
      if (job.state === "cancelled") return fail("The export was cancelled", "EXPORT_CANCELLED", { job: job.job });
      return { ok: true, result: view(job) };
    }
    if (name === JOBS_LIST_TOOL.name) {
      const args = strict(JOBS_LIST_TOOL.name as "jobs_list", input);
      if (isOutcome(args)) return args;
      return { ok: true, result: { jobs: [...jobs.values()].map(view) } };
    }
    if (name === JOBS_CANCEL_TOOL.name) {
      const args = strict(JOBS_CANCEL_TOOL.name as "jobs_cancel", input);
      if (isOutcome(args)) return args;
      if (typeof args.job !== "string") return fail("job must be a job id from jobs_list", "INVALID_ARGUMENT", { argument: "job" });
      const job = jobs.get(args.job);
      if (!job) return fail(`Job not found: ${args.job}`, "JOB_NOT_FOUND", { known: [...jobs.keys()] });
      if (job.state !== "running") return fail(`Job ${job.job} is not running (${job.state})`, "JOB_NOT_RUNNING", { state: job.state });
      job.controller.abort();
      await job.done;
      return { ok: true, result: view(job) };
    }
    return fail(`Unknown tool "${name}"`, "UNKNOWN_TOOL");
  }

  return {
    tools: EXPORT_TOOLS,
    handles: (name: string) => EXPORT_TOOLS.some((t) => t.name === name),
    call,
    async close() {
      for (const j of jobs.values()) j.controller.abort();
      await Promise.all([...jobs.values()].map((j) => j.done));
      const e = await started?.catch(() => undefined);
      await e?.close();
    },
  };
}

export type ExportJobs = ReturnType<typeof createExportJobs>;

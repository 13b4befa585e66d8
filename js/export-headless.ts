// Export without a browser page of the host's own (`neuralcut export`, MCP export_video): the
// package's `exportVideo` run in headless Chromium through playwright-core, one page per export.
// The page gets dist/, mediabunny's browser bundle and the project's media from the gate on
// 127.0.0.1 (js/headless-files.ts), and writes the file back to it chunk by chunk
// (PUT <base>out/<job>?at=<position>) into a new temporary file beside `<path>` (js/safe-write.ts),
// renamed to `<path>` when complete and deleted on cancel or failure. Chromium and the server
// start with the first export and close after an idle period with no export in flight.
import type { FileHandle } from "node:fs/promises";

import { asNeuralCutError, isErrorCode, NeuralCutError } from "./errors.js";
import { explainRefused, idleMs, onDemand, startHeadlessHost, type HeadlessHost } from "./render-headless.js";
import { commitTemp, discardTemp, openTemp } from "./safe-write.js";
import type { ExportFormat, ExportQuality, ExportResult } from "./export.js";
import type { ProjectJson } from "./types.js";

/** What a headless export is asked for. */
export interface HeadlessExportArgs {
  /** Absolute path of the file to write. */
  path: string;
  format: ExportFormat;
  start?: number;
  end?: number;
  width?: number;
  fps?: number;
  quality?: ExportQuality | number;
}

export interface HeadlessExportProgress {
  framesDone: number;
  totalFrames: number;
  progress: number;
}

/** The export's result without the Blob, plus the file's size in bytes. */
export type HeadlessExportResult = Omit<ExportResult, "blob"> & { path: string; bytes: number };

export interface HeadlessExporter {
  /**
   * Exports `project` (media by asset id: a file path or file:// URL) to `args.path`. Rejects
   * with the signal's reason when cancelled, the partial file deleted.
   */
  export(
    project: ProjectJson,
    media: ReadonlyMap<string, string>,
    args: HeadlessExportArgs,
    options?: { signal?: AbortSignal; onProgress?: (p: HeadlessExportProgress) => void },
  ): Promise<HeadlessExportResult>;
  close(): Promise<void>;
}

/** Runs in the page: one export, written back to the server as it goes. */
async function pageExport({
  base,
  project,
  media,
  options,
  job,
}: {
  base: string;
  project: string;
  media: Record<string, string>;
  options: Record<string, unknown>;
  job: string;
}) {
  const { createEditor } = await import(`${base}dist/index.js`);
  const { exportVideo } = await import(`${base}dist/export.js`);
  const editor = await createEditor({ project });
  const w = window as unknown as { __ncCancel?: () => void; __ncProgress?: (p: unknown) => void };
  const ac = new AbortController();
  w.__ncCancel = () => ac.abort();
  const target = new WritableStream<{ data: Uint8Array; position: number }>({
    async write(chunk) {
      const r = await fetch(`${base}out/${job}?at=${chunk.position}`, { method: "PUT", body: chunk.data as BodyInit });
      if (!r.ok) throw new Error(`could not write the file: ${await r.text()}`);
    },
  });
  const source = {
    frameAt: (t: number) => editor.frameAt(t),
    project: () => editor.project(),
    audioPlan: (a: number, b: number, s?: number) => editor.audioPlan(a, b, s),
    assetSource: (id: string) => (media[id] ? { url: media[id] } : undefined),
  };
  try {
    const { blob, ...result } = await exportVideo(source, { ...options, target, signal: ac.signal, onProgress: (p: unknown) => w.__ncProgress?.(p) });
    void blob;
    return { ok: true, result };
  } catch (e) {
    const err = e as { name?: string; code?: string; message?: string };
    return { ok: false, error: { name: err.name, code: err.code, message: err.message ?? String(e) } };
  } finally {
    editor.dispose();
  }
}

/** Starts headless Chromium and the server its pages export through, on first use; closed when
 * idle (`idleMs`, default idleMs()). */
export async function createHeadlessExporter(options: { chromiumPath?: string; idleMs?: number } = {}): Promise<HeadlessExporter> {
  const outputs = new Map<string, FileHandle>(); // job token -> the temporary file
  const hosts = onDemand(
    () =>
      startHeadlessHost("export", {
        chromiumPath: options.chromiumPath,
        async route(req, res, url, path) {
          if (!path.startsWith("/out/") || req.method !== "PUT") return false;
          const fh = outputs.get(path.slice(5));
          const at = Number(url.searchParams.get("at"));
          if (!fh || !Number.isSafeInteger(at) || at < 0) {
            res.writeHead(404);
            res.end();
            return true;
          }
          const chunks: Uint8Array[] = [];
          for await (const c of req) chunks.push(c);
          const body = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
          let o = 0;
          for (const c of chunks) body.set(c, (o += c.length) - c.length);
          await fh.write(body, 0, body.length, at);
          res.writeHead(204);
          res.end();
          return true;
        },
      }),
    idleMs(options.idleMs),
  );

  const run = async (
    host: HeadlessHost,
    ...[project, media, args, { signal, onProgress } = {}]: Parameters<HeadlessExporter["export"]>
  ): Promise<HeadlessExportResult> => {
    signal?.throwIfAborted();
    const { urls, refused, release } = await host.serveMedia(media, false);
    const job = crypto.randomUUID();
    // A new file made exclusively beside the target: a link planted at a guessable name is never followed.
    const { path: part, handle: fh } = await openTemp(args.path, ".part");
    outputs.set(job, fh);
    const tab = await host.browser.newPage();
    let cancelled = false;
    const cancel = () => {
      cancelled = true;
      tab.evaluate(() => (window as unknown as { __ncCancel?: () => void }).__ncCancel?.()).catch(() => {});
    };
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      await tab.exposeFunction("__ncProgress", (p: HeadlessExportProgress) => onProgress?.(p));
      await tab.goto(host.base);
      const range = args.start !== undefined || args.end !== undefined ? { range: { start: args.start, end: args.end } } : {};
      const opts = { format: args.format, width: args.width, fps: args.fps, quality: args.quality, ...range };
      const out = await tab.evaluate(pageExport, {
        base: host.base,
        project: JSON.stringify(project),
        media: urls,
        options: JSON.parse(JSON.stringify(opts)),
        job,
      });
      if (cancelled || signal?.aborted) throw signal?.reason ?? new DOMException("The export was cancelled", "AbortError");
      // The page's error crossed as { message, code }: the same code here, EXPORT_FAILED if none.
      if (!out.ok) throw new NeuralCutError(isErrorCode(out.error!.code) ? out.error!.code : "EXPORT_FAILED", out.error!.message);
      const bytes = (await fh.stat()).size;
      outputs.delete(job);
      await fh.close();
      await commitTemp(part, args.path);
      const result = out.result as Omit<ExportResult, "blob">;
      return { ...result, missing: explainRefused(result.missing, project, refused), path: args.path, bytes };
    } catch (e) {
      outputs.delete(job);
      await fh.close().catch(() => {});
      await discardTemp(part);
      if (signal?.aborted) throw signal.reason ?? e;
      throw e;
    } finally {
      signal?.removeEventListener("abort", cancel);
      release();
      await tab.close().catch(() => {});
    }
  };

  return {
    export: (...a) =>
      hosts
        .use((host) => run(host, ...a))
        .catch((e: unknown) => {
          // A cancelled export rejects with the signal's reason; a file or browser failure as EXPORT_FAILED.
          throw a[3]?.signal?.aborted ? e : asNeuralCutError(e, "EXPORT_FAILED", "the export failed: ");
        }),
    close: () => hosts.close(),
  };
}

// render_preview without a browser page of the host's own (`npx neuralcut mcp`): the same
// compositor, `neuralcut/render`, run in headless Chromium through playwright-core. The package's
// dist/ and the project's media files are served to that page by the gate in
// js/headless-files.ts, up only while renders are asked for (closed after an idle minute).
import { existsSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";

import { asNeuralCutError, NeuralCutError } from "./errors.js";
import { startHeadlessFileServer, type HostRequest, type MediaGrant } from "./headless-files.js";
import type { FileResponse } from "./media/send-file.js";
import { resultOf, type HostTool, type Outcome } from "./host-tools.js";
import { base64, explainMissing, previewArgs, RENDER_PREVIEW_TOOL, type PreviewArgs, type PreviewDescription } from "./render-preview.js";
import type { ProjectJson } from "./types.js";

/** Node's process, read without @types/node. */
const proc = (globalThis as unknown as { process: { env: Record<string, string | undefined>; cwd(): string } }).process;

/** The flags every headless Chromium of the project starts with (this module's, the benchmarks'
 * and the browser tests'): no sandbox (containers), no first-run work and no network of its own. */
export const CHROMIUM_FLAGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu-sandbox",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Where Chromium is looked for when no path is given (NEURALCUT_CHROMIUM, CHROMIUM_PATH). */
export const CHROMIUM_CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/** Finds Chromium: `explicit`, then $NEURALCUT_CHROMIUM, $CHROMIUM_PATH, then the usual places. */
export function findChromium(explicit?: string): string {
  const named = explicit ?? proc.env.NEURALCUT_CHROMIUM ?? proc.env.CHROMIUM_PATH;
  if (named) {
    if (!existsSync(named))
      throw new NeuralCutError(
        "RENDER_FAILED",
        `render_preview: no Chromium at ${named} (from ${explicit ? "the chromiumPath option" : proc.env.NEURALCUT_CHROMIUM ? "NEURALCUT_CHROMIUM" : "CHROMIUM_PATH"})`,
      );
    return named;
  }
  const found = CHROMIUM_CANDIDATES.find((p) => existsSync(p));
  if (!found) {
    throw new NeuralCutError(
      "RENDER_FAILED",
      "render_preview needs Chromium or Chrome to draw frames headless, and none was found. Install it (e.g. apt-get install chromium) or set NEURALCUT_CHROMIUM to its executable.",
    );
  }
  return found;
}

export interface HeadlessRendererOptions {
  /** Chromium's executable (default: findChromium()). */
  chromiumPath?: string;
  /** Close Chromium and its file server after this long with no render in flight (idleMs()). */
  idleMs?: number;
}

export interface HeadlessPreview {
  png: Uint8Array;
  description: PreviewDescription;
}

export interface HeadlessRenderer {
  /**
   * Renders `project` at `time`, `width` wide. `media` maps asset ids to a file path or file://
   * URL of the asset's bytes; assets without one are not drawn (listed in `notDrawn`).
   */
  render(project: ProjectJson, media: ReadonlyMap<string, string>, args: PreviewArgs): Promise<HeadlessPreview>;
  close(): Promise<void>;
}

/** Runs in the page: keeps one editor and one renderer, reloading the project when it changed;
 * the picture and its description are render-preview.ts's, as in a host's own page. */
async function pageRender({ base, project, media, args }: { base: string; project: string; media: Record<string, string>; args: PreviewArgs }) {
  const w = window as unknown as { __nc?: { editor: unknown; json: string; renderer: unknown; media: Record<string, string> } };
  const { createEditor } = await import(`${base}dist/index.js`);
  const { createFrameRenderer } = await import(`${base}dist/render.js`);
  const { renderPreviewImage } = await import(`${base}dist/render-preview.js`);
  if (!w.__nc || w.__nc.json !== project) {
    (w.__nc?.editor as { dispose?: () => void } | undefined)?.dispose?.();
    const editor = await createEditor({ project });
    const state = { editor, json: project, renderer: w.__nc?.renderer, media };
    w.__nc = state;
    state.renderer ??= await createFrameRenderer({
      editor: {
        frameAt: (t: number) => (w.__nc!.editor as { frameAt(t: number): unknown }).frameAt(t),
        project: () => (w.__nc!.editor as { project(): unknown }).project(),
        assetSource: (id: string) => (w.__nc!.media[id] ? { url: w.__nc!.media[id] } : undefined),
      },
    });
  }
  w.__nc.media = media;
  const { description, png: bytes } = await renderPreviewImage(w.__nc.renderer, args);
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { description: description as PreviewDescription, png: btoa(s) };
}

/** Headless Chromium and the gate on 127.0.0.1 its pages load from (js/headless-files.ts): the
 * package's dist/, mediabunny, the granted media, and whatever `route` answers first, all under
 * `base`. Shared by render_preview and export. */
export interface HeadlessHost {
  browser: import("playwright-core").Browser;
  origin: string;
  /** `origin` and the server's secret; every URL the page uses starts with it. */
  base: string;
  /** Grants the local files of `media` after the media check (HeadlessFileServer.grant). */
  serveMedia(media: ReadonlyMap<string, string>, stable: boolean): Promise<MediaGrant>;
  close(): Promise<void>;
}

/** The browser's own message, first line (playwright adds call logs below it). */
export const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0].replace(/^page\.evaluate: (Error: )?/, "");

export type { HostRequest };

/** mediabunny's single-file browser bundle, found beside the package Node resolves. */
function mediabunnyBundle(): string {
  const resolveUrl = (import.meta as unknown as { resolve(s: string): string }).resolve;
  return fileURLToPath(new URL("../../bundles/mediabunny.min.mjs", resolveUrl("mediabunny")));
}

/** soundtouchjs's module (one file, no dependencies), found as Node resolves it. */
function soundtouchModule(): string {
  return fileURLToPath((import.meta as unknown as { resolve(s: string): string }).resolve("soundtouchjs"));
}

/**
 * Headless Chromium and the gate for its pages: `<base>` (a blank page whose import map
 * resolves "mediabunny", which export and the renderer's video decoding import, and
 * "soundtouchjs", which the export loads for a clip that keeps its pitch), `<base>mediabunny.js`,
 * `<base>soundtouch.js`, dist/ and the media granted through `serveMedia`.
 */
export async function startHeadlessHost(
  purpose: string,
  options: {
    chromiumPath?: string;
    /** Answers the requests it knows (true), before dist/ and media; `path` is below the secret. */
    route?: (req: HostRequest, res: FileResponse, url: URL, path: string) => Promise<boolean>;
  },
): Promise<HeadlessHost> {
  // An export that cannot start Chromium fails as an export; render_preview as a render.
  const failed = (message: string, cause?: unknown) => new NeuralCutError(purpose === "export" ? "EXPORT_FAILED" : "RENDER_FAILED", message, { cause });
  let executablePath: string;
  try {
    executablePath = findChromium(options.chromiumPath);
  } catch (e) {
    throw failed((e as Error).message, e);
  }
  let playwright: typeof import("playwright-core");
  try {
    const name = "playwright-core";
    playwright = await import(name);
  } catch {
    throw failed(`${purpose} needs the playwright-core package to drive headless Chromium: npm install playwright-core`);
  }
  const files = await startHeadlessFileServer({
    html: (base) =>
      `<!doctype html><script type="importmap">{"imports":{"mediabunny":"${base}mediabunny.js","soundtouchjs":"${base}soundtouch.js"}}</script><title>neuralcut ${purpose}</title>`,
    dist: fileURLToPath(new URL(".", import.meta.url)),
    mediabunny: mediabunnyBundle(),
    soundtouch: soundtouchModule(),
    route: options.route,
  });
  let browser: import("playwright-core").Browser;
  try {
    browser = await playwright.chromium.launch({
      executablePath,
      headless: true,
      args: [...CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required"],
    });
  } catch (e) {
    await files.close();
    throw failed(`${purpose} could not start Chromium at ${executablePath}: ${firstLine(e)}`, e);
  }
  return {
    browser,
    origin: files.origin,
    base: files.base,
    serveMedia: (media, stable) => files.grant(media, stable),
    async close() {
      await browser.close().catch(() => {});
      await files.close();
    },
  };
}

/** `missing` (render or export) with the gate's reason for each element whose file it refused,
 * not only that the element had no source. */
export function explainRefused<M extends { elementId: string; reason: string }>(missing: M[], project: ProjectJson, refused: ReadonlyMap<string, string>): M[] {
  if (refused.size === 0) return missing;
  const tracks = (project.timeline as { tracks?: { elements?: { id?: string; assetId?: string }[] }[] } | undefined)?.tracks ?? [];
  const assetOf = new Map(tracks.flatMap((t) => t.elements ?? []).map((e) => [e.id, e.assetId]));
  return missing.map((m) => {
    const why = refused.get(assetOf.get(m.elementId) ?? "");
    return why ? { ...m, reason: `not served to the page: ${why}` } : m;
  });
}

/** How long a headless host stays up with nothing in flight (NEURALCUT_HEADLESS_IDLE_MS). */
export const HEADLESS_IDLE_MS = 60_000;

/** The idle time asked for: the option, else $NEURALCUT_HEADLESS_IDLE_MS, else HEADLESS_IDLE_MS. */
export function idleMs(option?: number): number {
  const env = Number(proc.env.NEURALCUT_HEADLESS_IDLE_MS);
  return option ?? (Number.isFinite(env) && env > 0 ? env : HEADLESS_IDLE_MS);
}

/**
 * A host started on first use and closed (Chromium and its file server) once `idle` ms pass with
 * no call of `use` in flight; the next `use` starts a fresh one, with a new port and secret.
 */
export function onDemand<T extends { close(): Promise<void> }>(start: () => Promise<T>, idle: number) {
  let current: Promise<T> | undefined;
  let busy = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const close = async () => {
    clearTimeout(timer);
    const was = current;
    current = undefined;
    await (await was?.catch(() => undefined))?.close();
  };
  return {
    async use<R>(fn: (host: T) => Promise<R>): Promise<R> {
      clearTimeout(timer);
      busy++;
      try {
        if (!current) {
          const p = start();
          current = p;
          p.catch(() => current === p && (current = undefined));
        }
        return await fn(await current);
      } finally {
        if (--busy === 0) {
          timer = setTimeout(() => void close(), idle);
          (timer as { unref?: () => void }).unref?.();
        }
      }
    },
    close,
  };
}

/** Starts headless Chromium on a page that can render frames, on first use; closed when idle. */
/** A headless host with one page open at its base: started on first use, closed when idle
 * (render_preview's renderer, the media tools of js/media-tools-node.ts). */
export function onDemandPage(purpose: string, options: { chromiumPath?: string; idleMs?: number }) {
  return onDemand(async () => {
    const host = await startHeadlessHost(purpose, { chromiumPath: options.chromiumPath });
    try {
      const page = await host.browser.newPage();
      await page.goto(host.base);
      return Object.assign(host, { page });
    } catch (e) {
      await host.close();
      throw e;
    }
  }, idleMs(options.idleMs));
}

export async function createHeadlessRenderer(options: HeadlessRendererOptions = {}): Promise<HeadlessRenderer> {
  const hosts = onDemandPage("render_preview", options);
  let queue: Promise<unknown> = Promise.resolve();

  const render = (project: ProjectJson, media: ReadonlyMap<string, string>, args: PreviewArgs): Promise<HeadlessPreview> =>
    hosts.use(async ({ page, base, serveMedia }) => {
      const { urls, refused } = await serveMedia(media, true);
      const { description, png } = await page.evaluate(pageRender, { base, project: JSON.stringify(project), media: urls, args });
      return { png: Uint8Array.from(atob(png), (c) => c.charCodeAt(0)), description: explainMissing(description, (m) => explainRefused(m, project, refused)) };
    });

  return {
    render(project, media, args) {
      // A page or browser failure (playwright's own error) is RENDER_FAILED, the error its cause.
      const next = queue
        .then(() => render(project, media, args))
        .catch((e: unknown) => {
          throw asNeuralCutError(e, "RENDER_FAILED");
        });
      queue = next.catch(() => undefined);
      return next;
    },
    close: () => hosts.close(),
  };
}

/** The editor surface the MCP tool reads. */
export interface PreviewEditor {
  project(): ProjectJson;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
}

/** Where each asset's bytes are: its source URL, the session's path, a `path` saved on the
 * asset (relative to the project file's folder), or a `url` saved on it. */
export function mediaLocations(
  editor: PreviewEditor,
  project: ProjectJson,
  options: { projectDir?: string; paths?: ReadonlyMap<string, string> },
): Map<string, string> {
  const media = new Map<string, string>();
  for (const a of (project.assets ?? []) as { id: string }[]) {
    const extra = a as unknown as { path?: unknown; url?: unknown };
    const saved = typeof extra.path === "string" && extra.path ? resolvePath(options.projectDir ?? proc.cwd(), extra.path) : undefined;
    const where = editor.assetSource(a.id)?.url ?? options.paths?.get(a.id) ?? saved ?? (typeof extra.url === "string" ? extra.url : undefined);
    if (where) media.set(a.id, where);
  }
  return media;
}

/**
 * render_preview for a Node session (`neuralcut mcp`, the CLI's render-frame): starts headless
 * Chromium on first use and renders the editor's current project with the media files its assets
 * were imported from (`media_import` keeps them as file:// sources; a `path` or `url` saved on the
 * asset works too). `tool` is the catalog entry MCP, command_run and command_batch run.
 */
export function headlessRenderPreview(
  editor: PreviewEditor,
  options: HeadlessRendererOptions & {
    projectDir?: string /** Absolute media path by asset id (the MCP session's). */;
    paths?: ReadonlyMap<string, string>;
  } = {},
): { tool: HostTool; render(input: unknown): Promise<Outcome & { png?: Uint8Array }>; close(): Promise<void> } {
  let started: Promise<HeadlessRenderer> | undefined;
  async function render(input: unknown): Promise<Outcome & { png?: Uint8Array }> {
    const args = previewArgs(input);
    if ("error" in args) return { ok: false, error: args };
    try {
      started ??= createHeadlessRenderer(options);
      started.catch(() => (started = undefined));
      const renderer = await started;
      const project = editor.project();
      const media = mediaLocations(editor, project, options);
      const { png, description } = await renderer.render(project, media, args);
      return { ok: true, result: description, images: [{ type: "image", data: base64(png), mimeType: "image/png" }], png };
    } catch (e) {
      return { ok: false, error: { error: e instanceof Error ? e.message : String(e), code: "RENDER_FAILED" } };
    }
  }
  return {
    tool: { ...RENDER_PREVIEW_TOOL, call: async (input) => resultOf(await render(input)) },
    render,
    async close() {
      const r = await started?.catch(() => undefined);
      await r?.close();
    },
  };
}

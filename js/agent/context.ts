// The Gemini context provider behind load_asset_context: asks the host's consent, uploads the
// asset's bytes through the proxy, waits (bounded) for Gemini to finish processing, asks once for
// a short summary, and reports back to the editor, which keeps the cache by asset id.

import { NeuralCutError } from "../errors.js";
import type { AssetJson, AssetSource, ContextProvider, ContextProviderRequest, ProviderReport } from "../types.js";
import { abortReason, ProxyError, responseText, type GenerateResponse, type ProxyClient, type StatusResult } from "./client.js";
import { taskConfig } from "./models.js";

/** What the host is asked before an asset's bytes leave the machine. */
export interface UploadConsentRequest {
  asset: AssetJson;
  sizeBytes: number;
  mimeType: string;
  signal?: AbortSignal;
}

/** Thrown (and reported as the tool's details) when an upload is not allowed. */
export class UploadRefusedError extends NeuralCutError {
  constructor(code: "UPLOAD_DECLINED" | "UPLOADS_NOT_ALLOWED", message: string) {
    super(code, message);
    this.name = "UploadRefusedError";
  }
}

export interface GeminiContextOptions {
  client: ProxyClient;
  /** Model for the one-off summary. */
  model: string;
  /** How long one load_asset_context call waits for ACTIVE before answering "processing". 60 000 ms. */
  maxWaitMs?: number;
  /** Between status polls. 2 000 ms. */
  pollIntervalMs?: number;
  /** Ask Gemini for a short summary once the file is active. true. */
  summarize?: boolean;
  summaryPrompt?: string;
  /** Waits `ms`; replaceable in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Cancels uploads, polls and the summary: a signal, or a function giving the current one. */
  signal?: AbortSignal | (() => AbortSignal | undefined);
  /** Asked before every upload; resolve false to refuse. Without it uploads are allowed. */
  consent?: (request: UploadConsentRequest) => boolean | Promise<boolean>;
  /** The proxy's bound on maxOutputTokens, when it has one. */
  maxOutputTokens?: number | (() => number | undefined);
  /** Called as an asset's bytes go out (fraction 0 to 1; see ProxyClient.upload). */
  onProgress?: (info: { assetId: string; fraction: number }) => void;
}

export interface GeminiContextProvider extends ContextProvider {
  /** The MIME type of an uploaded handle, when this provider uploaded it. */
  mimeTypeOf(fileUri: string): string | undefined;
  /** When the handle expires (ms since the epoch), as last reported by the proxy. */
  expiresAtOf(fileUri: string): number | undefined;
  /** Uploads made so far (for diagnostics and tests). */
  readonly uploads: number;
}

const DEFAULT_SUMMARY_PROMPT =
  "Summarize this media for a video editor in at most three sentences: what is seen and heard, notable moments with their times in seconds, and any speech.";

const EXTENSIONS: Record<string, string> = {
  mp4: "video/mp4",
  m4v: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
  avi: "video/x-msvideo",
  mpeg: "video/mpeg",
  mpg: "video/mpeg",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  flac: "audio/flac",
  opus: "audio/ogg",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
};
const FALLBACK: Record<string, string> = { video: "video/mp4", audio: "audio/mpeg", image: "image/png" };

/** The MIME type to upload an asset with: the Blob's own, else from the name, else by asset type. */
export function mimeTypeFor(asset: AssetJson, blob: Blob, hint?: string): string {
  const own = (blob.type || "").split(";")[0].trim().toLowerCase();
  if (own.startsWith(`${asset.type}/`)) return own;
  const fromName = (name?: string) => {
    const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(name ?? "")?.[1]?.toLowerCase();
    const t = ext ? EXTENSIONS[ext] : undefined;
    return t?.startsWith(`${asset.type}/`) ? t : undefined;
  };
  return fromName(asset.name) ?? fromName(hint) ?? FALLBACK[asset.type] ?? "application/octet-stream";
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

/** The bytes of an asset: its Blob, or what its URL serves (fetched by the browser, never the proxy). */
async function assetBytes(source: AssetSource, doFetch: typeof fetch, signal?: AbortSignal): Promise<Blob> {
  if (source.file) return source.file;
  if (source.url) {
    let res: Response;
    try {
      res = await doFetch(source.url, { signal });
    } catch {
      throw new NeuralCutError("CONTEXT_LOAD_FAILED", "the asset URL could not be fetched");
    }
    if (!res.ok) throw new NeuralCutError("CONTEXT_LOAD_FAILED", `the asset URL answered HTTP ${res.status}`);
    return res.blob();
  }
  throw new NeuralCutError("NO_SOURCE", "the asset has no file or url to upload (pass file or url to addAsset)");
}

/** "2.9 MB" */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(2)} GB`;
}

function safeMessage(e: unknown): string {
  if (e instanceof UploadRefusedError) return e.message;
  if (e instanceof ProxyError) return e.message;
  if (e instanceof Error) return e.message.slice(0, 300);
  return "unknown error";
}

export function createGeminiContextProvider(options: GeminiContextOptions & { fetch?: typeof fetch }): GeminiContextProvider {
  const { client, model } = options;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const pollIntervalMs = Math.max(1, options.pollIntervalMs ?? 2_000);
  const maxPolls = Math.max(1, Math.ceil(maxWaitMs / pollIntervalMs));
  const sleep = options.sleep ?? defaultSleep;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const signalNow = () => (typeof options.signal === "function" ? options.signal() : options.signal);
  const tokenCap = () => (typeof options.maxOutputTokens === "function" ? options.maxOutputTokens() : options.maxOutputTokens);
  const mimeTypes = new Map<string, string>();
  const expiries = new Map<string, number>();
  let uploads = 0;

  async function upload(asset: AssetJson, source: AssetSource, signal?: AbortSignal): Promise<StatusResult> {
    const blob = await assetBytes(source, doFetch, signal);
    const mimeType = mimeTypeFor(asset, blob, source.url);
    if (options.consent) {
      let allowed: boolean;
      try {
        allowed = (await options.consent({ asset, sizeBytes: blob.size, mimeType, signal })) === true;
      } catch (e) {
        if (e instanceof UploadRefusedError || signal?.aborted) throw e;
        allowed = false;
      }
      if (signal?.aborted) throw abortReason(signal);
      if (!allowed) throw new UploadRefusedError("UPLOAD_DECLINED", `the user declined uploading "${asset.name}" (${formatBytes(blob.size)}) to Gemini`);
    }
    const onProgress = options.onProgress && ((fraction: number) => options.onProgress!({ assetId: asset.id, fraction }));
    const up = await client.upload(blob, { name: asset.name, mimeType, signal, ...(onProgress ? { onProgress } : {}) });
    uploads++;
    mimeTypes.set(up.handle, up.mimeType);
    if (up.expiresAt) expiries.set(up.handle, up.expiresAt);
    return up;
  }

  async function summarize(handle: string, signal?: AbortSignal): Promise<string | undefined> {
    // A second try with twice the room when thinking ate the first.
    for (let boost = 1; boost <= 2; boost++) {
      let res: GenerateResponse;
      try {
        res = await client.generate(
          {
            model,
            contents: [
              {
                role: "user",
                parts: [{ fileData: { fileUri: handle, mimeType: mimeTypes.get(handle) } }, { text: options.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT }],
              },
            ],
            generationConfig: taskConfig(model, "summary", { temperature: 0.2, maxOutputTokens: tokenCap(), boost }),
          },
          signal,
        );
      } catch (e) {
        if (signal?.aborted) throw e;
        // A missing summary is not a failed load.
        return undefined;
      }
      const text = responseText(res).trim();
      if (text) return text.slice(0, 1200);
      if (res.candidates?.[0]?.finishReason !== "MAX_TOKENS") return undefined;
    }
    return undefined;
  }

  async function load(request: ContextProviderRequest): Promise<ProviderReport> {
    const { asset, previous, source } = request;
    const signal = signalNow();
    let st: StatusResult | undefined;
    let summary: string | undefined;
    try {
      if (signal?.aborted) throw abortReason(signal);
      if (previous && previous.status === "processing" && previous.fileUri) {
        try {
          st = await client.status(previous.fileUri, signal);
        } catch (e) {
          // Expired, or a handle of an earlier proxy key or client: upload again.
          if (!(e instanceof ProxyError) || (e.status !== 404 && e.status !== 410)) throw e;
        }
      }
      st ??= await upload(asset, source, signal);
      for (let i = 0; st.state === "PROCESSING" && i < maxPolls; i++) {
        await sleep(pollIntervalMs, signal);
        st = await client.status(st.handle, signal);
      }
      if (st.state === "FAILED") throw new NeuralCutError("CONTEXT_LOAD_FAILED", `Gemini could not process the file${st.details ? `: ${st.details}` : ""}`);
      if (st.mimeType) mimeTypes.set(st.handle, st.mimeType);
      if (st.expiresAt) expiries.set(st.handle, st.expiresAt);
      const known = previous && previous.fileUri === st.handle ? previous.summary : undefined;
      if (st.state === "ACTIVE" && !known && options.summarize !== false) summary = await summarize(st.handle, signal);
    } catch (e) {
      if ((e as { name?: string })?.name === "AbortError" || signal?.aborted) throw new NeuralCutError("CANCELLED", "cancelled by the user");
      throw new NeuralCutError("CONTEXT_LOAD_FAILED", safeMessage(e));
    }
    const report: ProviderReport = { fileUri: st.handle, status: st.state === "ACTIVE" ? "active" : "processing" };
    if (st.expiresAt) report.expiresAt = st.expiresAt;
    if (summary) report.summary = summary;
    return report;
  }

  return {
    supportedTypes: ["video", "audio", "image"],
    load,
    mimeTypeOf: (fileUri) => mimeTypes.get(fileUri),
    expiresAtOf: (fileUri) => expiries.get(fileUri),
    get uploads() {
      return uploads;
    },
  };
}

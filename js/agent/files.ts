// The media the agent has at Gemini, by file handle: load_asset_context with a near-expiry check,
// and the healing of dead handles (expired, deleted, failed): the asset is uploaded again (with
// consent) and the history points at the new handle, or the file leaves the history.
import type { NeuralCutEditor } from "../editor.js";
import { abortReason, ProxyError, type Content, type ProxyClient } from "./client.js";
import type { GeminiContextProvider } from "./context.js";
import { dropFileData } from "./history.js";
import type { ActiveTools } from "./active-tools.js";
import type { AgentEvent } from "./types.js";

export interface FileHandlesOptions {
  editor: NeuralCutEditor;
  client: ProxyClient;
  /** Created after this (it asks the consent that needs the catalog): read when needed. */
  contextProvider: () => GeminiContextProvider;
  emit: (event: AgentEvent) => void;
  /** A cached file expiring sooner than this is checked with the proxy before use. */
  nearExpiryMs: number;
  /** The current conversation's handles whose summary the model has. */
  summarized: () => Set<string>;
  tools: ActiveTools;
}

export interface FileHandles {
  /** Whether the proxy says the handle is gone (expired, deleted, failed, unknown). */
  isGone(fileUri: string, signal?: AbortSignal): Promise<boolean>;
  /** Drops the editor's cache entry of a dead handle and uploads again (with consent); the new handle, or undefined. */
  replaceFile(assetId: string, fileUri: string, signal?: AbortSignal): Promise<string | undefined>;
  /** load_asset_context as the agent runs it: with its signal, consent, and a near-expiry check. */
  loadContext(args: Record<string, unknown>, signal?: AbortSignal, recheck?: boolean): Promise<Record<string, unknown>>;
  /** Checks the files of a failed request; replaces or removes each dead one in `contents`. True when any was dead. */
  healFiles(contents: Content[], files: string[], signal: AbortSignal): Promise<boolean>;
}

export function createFileHandles(o: FileHandlesOptions): FileHandles {
  const { editor, client, emit, tools } = o;
  /** Which asset each handle belongs to. */
  const handleAssets = new Map<string, string>();

  async function isGone(fileUri: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const st = await client.status(fileUri, signal);
      return st.state === "FAILED";
    } catch (e) {
      if (signal?.aborted) throw abortReason(signal);
      return e instanceof ProxyError && (e.status === 404 || e.status === 410);
    }
  }

  async function replaceFile(assetId: string, fileUri: string, signal?: AbortSignal): Promise<string | undefined> {
    forget(assetId, fileUri);
    const assets = (editor.project() as { assets?: Array<{ id: string; name: string }> }).assets ?? [];
    const name = assets.find((a) => a.id === assetId)?.name ?? assetId;
    emit({ type: "notice", code: "REUPLOAD", message: `Gemini no longer has "${name}" (its upload expired); uploading it again.` });
    const out = await loadContext({ assetId }, signal, false);
    return out.status === "loaded" && typeof out.fileUri === "string" ? out.fileUri : undefined;
  }

  function forget(assetId: string, fileUri: string): void {
    editor.forgetContext(assetId);
    handleAssets.delete(fileUri);
    o.summarized().delete(fileUri);
    // Gone already, most likely; the proxy answers 404 then.
    void client.delete(fileUri).catch(() => {});
  }

  async function loadContext(args: Record<string, unknown>, signal?: AbortSignal, recheck = true): Promise<Record<string, unknown>> {
    const run = () => tools.run(tools.name() ?? "load_asset_context", signal, () => editor.callToolUntyped("load_asset_context", args));
    let out = await run();
    if (out.status !== "loaded" || typeof out.fileUri !== "string" || typeof out.assetId !== "string") return out;
    handleAssets.set(out.fileUri, out.assetId);
    const expiresAt = o.contextProvider().expiresAtOf(out.fileUri);
    if (recheck && out.cached === true && expiresAt !== undefined && expiresAt - Date.now() < o.nearExpiryMs && (await isGone(out.fileUri, signal))) {
      forget(out.assetId, out.fileUri);
      out = await run();
      if (out.status === "loaded" && typeof out.fileUri === "string" && typeof out.assetId === "string") handleAssets.set(out.fileUri, out.assetId);
    }
    return out;
  }

  async function healFiles(contents: Content[], files: string[], signal: AbortSignal): Promise<boolean> {
    const dead: string[] = [];
    for (const f of files) if (await isGone(f, signal)) dead.push(f);
    for (const f of dead) {
      const assetId = handleAssets.get(f);
      const fresh = assetId ? await replaceFile(assetId, f, signal) : undefined;
      if (signal.aborted) throw abortReason(signal);
      const mimeType = fresh ? o.contextProvider().mimeTypeOf(fresh) : undefined;
      for (const c of contents) {
        for (const p of c.parts) {
          if (p.fileData?.fileUri === f && fresh) p.fileData = mimeType ? { fileUri: fresh, mimeType } : { fileUri: fresh };
        }
      }
      if (!fresh) dropFileData(contents, (uri) => uri === f);
    }
    return dead.length > 0;
  }

  return { isGone, replaceFile, loadContext, healFiles };
}

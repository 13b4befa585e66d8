// Asking the host: `confirm` before an edit (abandoned when the message is cancelled; a confirm
// that throws declines) and the consent to upload an asset's bytes to Gemini (confirm, else
// `allowUploads`, else refused).
import type { ToolInfo } from "../types.js";
import { abortReason } from "./client.js";
import { formatBytes, UploadRefusedError, type UploadConsentRequest } from "./context.js";
import type { AgentOptions, ConfirmRequest } from "./types.js";

export interface ConsentOptions {
  options: Pick<AgentOptions, "confirm" | "allowUploads">;
  /** The tools by name (their titles and annotations). */
  catalog: () => Map<string, { title: string; annotations: ToolInfo["annotations"] }>;
  /** The tool running now, which the upload is for. */
  currentTool: () => string | undefined;
}

export interface Consent {
  /** confirm, abandoned (rejecting with an AbortError) when `signal` aborts. Needs options.confirm. */
  ask(request: ConfirmRequest, signal?: AbortSignal): Promise<boolean>;
  uploadConsent(request: UploadConsentRequest): Promise<boolean>;
}

export function createConsent({ options, catalog, currentTool }: ConsentOptions): Consent {
  function ask(request: ConfirmRequest, signal?: AbortSignal): Promise<boolean> {
    const confirm = options.confirm!;
    return new Promise<boolean>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = () => reject(abortReason(signal));
      signal?.addEventListener("abort", onAbort, { once: true });
      Promise.resolve()
        .then(() => confirm({ ...request, signal }))
        .then(
          (v) => resolve(v === true),
          () => resolve(false),
        )
        .finally(() => signal?.removeEventListener("abort", onAbort));
    });
  }

  async function uploadConsent({ asset, sizeBytes, mimeType, signal }: UploadConsentRequest): Promise<boolean> {
    if (options.confirm) {
      const name = currentTool() ?? "load_asset_context";
      const info = catalog().get(name) ?? catalog().get("load_asset_context");
      return ask(
        {
          kind: "upload",
          name,
          title: `Upload "${asset.name}" (${formatBytes(sizeBytes)}) to Gemini`,
          args: { assetId: asset.id },
          annotations: info?.annotations ?? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
          upload: { assetId: asset.id, assetName: asset.name, assetType: asset.type, sizeBytes, mimeType },
        },
        signal,
      );
    }
    if (options.allowUploads === true) return true;
    throw new UploadRefusedError(
      "UPLOADS_NOT_ALLOWED",
      `uploading media to Gemini is not enabled in this app, so "${asset.name}" was not sent; the user can still describe it in words`,
    );
  }

  return { ask, uploadConsent };
}

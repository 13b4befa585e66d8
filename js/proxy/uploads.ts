// Streaming an upload into Gemini's resumable upload: full chunks as they fill, the rest with
// finalize. One chunk is in memory at a time. There is no limit on how long an upload takes, only
// on how long the client may send nothing (uploadIdleTimeoutMs), so a large file on a slow line
// goes through and a stalled one lets go of its memory.

import { RequestError, UpstreamError } from "./errors.js";
import type { CallContext, UpstreamClient, UpstreamFile } from "./upstream.js";

export interface UploadPlan {
  /** Declared (Content-Length) size. */
  total: number;
  mimeType: string;
  displayName: string;
  chunkBytes: number;
  idleTimeoutMs: number;
}

/** Reads the next piece of the body, or throws 408 when nothing comes for `idleMs`. */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, idleMs: number): Promise<ReadableStreamReadResult<Uint8Array>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RequestError(408, `The upload stalled: nothing arrived for ${Math.round(idleMs / 1000)} s`, "upload_stalled")), idleMs);
  });
  try {
    return await Promise.race([
      reader.read().catch(() => {
        throw new RequestError(400, "The upload was interrupted", "upload_interrupted");
      }),
      idle,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0].byteLength === total) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Streams `body` to Gemini and returns the file it made. */
export async function streamUpload(body: ReadableStream<Uint8Array>, plan: UploadPlan, upstream: UpstreamClient, ctx: CallContext): Promise<UpstreamFile> {
  const { session, granularity } = await upstream.startUpload(plan.total, plan.mimeType, plan.displayName, ctx);
  const chunkSize = Math.max(granularity, Math.ceil(plan.chunkBytes / granularity) * granularity);
  const reader = body.getReader();
  let pending: Uint8Array[] = [];
  let pendingLen = 0;
  let received = 0;
  let offset = 0;
  try {
    for (;;) {
      const chunk = await readWithin(reader, plan.idleTimeoutMs);
      if (chunk.value) {
        received += chunk.value.byteLength;
        if (received > plan.total) throw new RequestError(413, "The body is longer than its Content-Length", "too_large");
        pending.push(chunk.value);
        pendingLen += chunk.value.byteLength;
      }
      while (pendingLen >= chunkSize && offset + chunkSize < plan.total) {
        const all = concat(pending, pendingLen);
        await upstream.sendChunk(session, all.subarray(0, chunkSize), offset, false, ctx);
        offset += chunkSize;
        pending = [all.subarray(chunkSize)];
        pendingLen -= chunkSize;
      }
      if (chunk.done) break;
    }
  } catch (e) {
    await reader.cancel().catch(() => {});
    throw e;
  }
  if (received !== plan.total) throw new RequestError(400, "The body is shorter than its Content-Length", "bad_request");
  const file = await upstream.sendChunk(session, concat(pending, pendingLen), offset, true, ctx);
  if (!file) throw new UpstreamError(502, "Gemini answered the upload without a file", { requestId: ctx.requestId });
  return file;
}

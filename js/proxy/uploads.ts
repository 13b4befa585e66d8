// Streaming an upload into Gemini's resumable upload: full chunks as they fill, the rest with
// finalize. One chunk is in memory at a time. The client may send nothing for at most
// uploadIdleTimeoutMs, and must bring uploadMinBytesPerSecond over each uploadRateWindowMs of
// waiting on it: a large file on a slow line goes through, a stalled or trickling one lets go of
// its slot and its memory. Time spent sending to Gemini is not the client's and is not counted.

import { RequestError, UpstreamError } from "./errors.js";
import type { CallContext, UpstreamClient, UpstreamFile } from "./upstream.js";

export interface UploadPlan {
  /** Declared (Content-Length) size. */
  total: number;
  mimeType: string;
  displayName: string;
  chunkBytes: number;
  idleTimeoutMs: number;
  minBytesPerSecond: number;
  rateWindowMs: number;
}

/** The rate kept over windows of time spent waiting on the client. */
interface Rate {
  windowMs: number;
  /** Bytes each full window must bring. */
  need: number;
  /** Waiting time in the current window, ms. */
  waited: number;
  /** Bytes in the current window. */
  got: number;
}

const tooSlow = (r: Rate) =>
  new RequestError(408, `The upload is too slow: under ${Math.round((r.need * 1000) / r.windowMs)} bytes a second`, "UPLOAD_TOO_SLOW");

/** Books `ms` of waiting and `bytes` read; throws when a window closed short. */
function account(rate: Rate, ms: number, bytes: number): void {
  rate.waited += ms;
  rate.got += bytes;
  while (rate.waited >= rate.windowMs) {
    if (rate.got < rate.need) throw tooSlow(rate);
    rate.waited -= rate.windowMs;
    rate.got = 0;
  }
}

/** Reads the next piece of the body, or throws 408 when nothing comes for `idleMs` or the
 * current window of `rate` closes with too few bytes. */
async function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, idleMs: number, rate: Rate): Promise<ReadableStreamReadResult<Uint8Array>> {
  const t0 = Date.now();
  let idle: ReturnType<typeof setTimeout> | undefined;
  let slow: ReturnType<typeof setTimeout> | undefined;
  // Nothing arrives while waiting, so this window fails at its end unless it already has enough.
  const windowEnd = rate.windowMs - rate.waited + (rate.got >= rate.need ? rate.windowMs : 0);
  const limits = new Promise<never>((_, reject) => {
    idle = setTimeout(() => reject(new RequestError(408, `The upload stalled: nothing arrived for ${Math.round(idleMs / 1000)} s`, "UPLOAD_STALLED")), idleMs);
    slow = setTimeout(() => reject(tooSlow(rate)), windowEnd);
  });
  try {
    const chunk = await Promise.race([
      reader.read().catch(() => {
        throw new RequestError(400, "The upload was interrupted", "UPLOAD_INTERRUPTED");
      }),
      limits,
    ]);
    account(rate, Date.now() - t0, chunk.value?.byteLength ?? 0);
    return chunk;
  } finally {
    clearTimeout(idle);
    clearTimeout(slow);
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
  const rate: Rate = { windowMs: plan.rateWindowMs, need: (plan.minBytesPerSecond * plan.rateWindowMs) / 1000, waited: 0, got: 0 };
  try {
    for (;;) {
      const chunk = await readWithin(reader, plan.idleTimeoutMs, rate);
      if (chunk.value) {
        received += chunk.value.byteLength;
        if (received > plan.total) throw new RequestError(413, "The body is longer than its Content-Length", "TOO_LARGE");
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
  if (received !== plan.total) throw new RequestError(400, "The body is shorter than its Content-Length", "BAD_REQUEST");
  const file = await upstream.sendChunk(session, concat(pending, pendingLen), offset, true, ctx);
  if (!file) throw new UpstreamError(502, "Gemini answered the upload without a file", { requestId: ctx.requestId });
  return file;
}

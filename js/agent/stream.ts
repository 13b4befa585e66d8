// A model call, streamed or not; the chunks of a streamed one merged into the one response `generate`
// would have given, thought signatures and all.
import { abortReason, type GenerateRequest, type GenerateResponse, type Part, type ProxyClient } from "./client.js";

/** Whether a part is plain text (with its thought flag and signature at most): streamed pieces of it merge. */
function plainText(p: Part): boolean {
  return typeof p.text === "string" && Object.keys(p).every((k) => k === "text" || k === "thought" || k === "thoughtSignature");
}

/** One response from streamed chunks: text pieces joined into the part they came from (a piece
 * after a signed part starts a new part, as Gemini signs the end of a part), every other part
 * verbatim, the last finishReason, usage and feedback. */
export function mergeChunks(chunks: GenerateResponse[]): GenerateResponse {
  const parts: Part[] = [];
  let role = "model";
  let seen = false;
  const candidate: Record<string, unknown> = { index: 0 };
  const out: GenerateResponse = { candidates: [] };
  for (const chunk of chunks) {
    const c = chunk.candidates?.[0];
    if (c) {
      seen = true;
      if (typeof c.content?.role === "string") role = c.content.role;
      for (const part of c.content?.parts ?? []) {
        const last = parts[parts.length - 1];
        if (last && plainText(last) && plainText(part) && !last.thoughtSignature && !!last.thought === !!part.thought) {
          last.text = (last.text as string) + (part.text as string);
          if (part.thoughtSignature) last.thoughtSignature = part.thoughtSignature;
        } else {
          parts.push({ ...part });
        }
      }
      for (const k of ["finishReason", "finishMessage", "safetyRatings"])
        if ((c as Record<string, unknown>)[k] !== undefined) candidate[k] = (c as Record<string, unknown>)[k];
    }
    for (const k of ["usageMetadata", "promptFeedback", "modelVersion", "responseId"]) {
      const v = (chunk as unknown as Record<string, unknown>)[k];
      if (v !== undefined) (out as unknown as Record<string, unknown>)[k] = v;
    }
  }
  if (seen) out.candidates = [{ ...(parts.length ? { content: { role, parts } } : {}), ...candidate } as NonNullable<GenerateResponse["candidates"]>[number]];
  return out;
}

/** One model call: streamed (each text piece to `onText` as it arrives; the chunks merged into the
 * same response generate would give) or not. */
export async function modelCall(
  client: ProxyClient,
  request: GenerateRequest,
  signal: AbortSignal,
  stream: boolean,
  onText: (text: string) => void,
): Promise<GenerateResponse> {
  if (!stream) return client.generate(request, signal);
  const chunks: GenerateResponse[] = [];
  for await (const chunk of client.stream(request, signal)) {
    chunks.push(chunk);
    for (const p of chunk.candidates?.[0]?.content?.parts ?? []) {
      if (typeof p.text === "string" && p.text && !p.thought) onText(p.text);
    }
  }
  if (signal.aborted) throw abortReason(signal);
  return mergeChunks(chunks);
}

// The shape check of a /generate request. Only what the agent needs passes: text, function calls
// and responses, thought signatures, fileData that names a handle this proxy issued, and one
// small inline image per request (the agent's render_preview frame). Tools
// are function declarations only: Google's own tools (search, URL context, code execution) would
// make the proxy fetch or run what a browser asked for. What sets the cost of a call (output and
// thinking tokens, media resolution, video frame rate, files) is clamped or bounded here.

import type { Content, FunctionDeclaration, GenerateRequest, Part } from "../gemini-types.js";
import type { ProxyLimits } from "./config.js";
import { MEDIA_RESOLUTIONS } from "./config.js";
import { RequestError } from "./errors.js";

/** The body of a generate request, once checked (the agent's own request type). */
export type GenerateBody = GenerateRequest;
export type { Content, Part };

type Bounds = Pick<
  Required<ProxyLimits>,
  | "maxTurns"
  | "maxPartsPerTurn"
  | "maxPartsPerRequest"
  | "maxFunctionDeclarations"
  | "maxFilesPerRequest"
  | "maxInlineImageBytes"
  | "maxOutputTokens"
  | "maxThinkingTokens"
  | "maxMediaResolution"
  | "maxVideoFps"
  | "maxInputTokens"
>;

const BODY_KEYS = new Set(["model", "contents", "tools", "toolConfig", "systemInstruction", "generationConfig"]);
const PART_KEYS = new Set(["text", "thought", "thoughtSignature", "functionCall", "functionResponse", "fileData", "inlineData", "videoMetadata"]);
const GENERATION_KEYS = new Set([
  "temperature",
  "topP",
  "topK",
  "maxOutputTokens",
  "candidateCount",
  "stopSequences",
  "responseMimeType",
  "responseSchema",
  "responseJsonSchema",
  "thinkingConfig",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
  "mediaResolution",
]);
const FUNCTION_CALL_KEYS = new Set(["name", "args", "id"]);
const FUNCTION_RESPONSE_KEYS = new Set(["name", "response", "id"]);
const FILE_DATA_KEYS = new Set(["fileUri", "mimeType"]);
const INLINE_DATA_KEYS = new Set(["mimeType", "data"]);
/** Inline data is for pictures only: a frame the agent rendered. Anything else goes through /upload. */
const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const VIDEO_METADATA_KEYS = new Set(["startOffset", "endOffset", "fps"]);
const THINKING_KEYS = new Set(["thinkingBudget", "thinkingLevel", "includeThoughts"]);
const FUNCTION_CALLING_KEYS = new Set(["mode", "allowedFunctionNames"]);
const DECLARATION_KEYS = new Set(["name", "description", "parameters", "parametersJsonSchema", "response", "responseJsonSchema"]);
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function bad(message: string): RequestError {
  return new RequestError(400, message);
}

function onlyKeys(obj: Record<string, unknown>, allowed: Set<string>, where: string): void {
  for (const k of Object.keys(obj)) if (!allowed.has(k)) throw bad(`${where}: '${k}' is not accepted (accepted: ${[...allowed].join(", ")})`);
}

function checkPart(raw: unknown, where: string, bounds: Bounds): Part {
  if (!isObject(raw)) throw bad(`${where} is not an object`);
  onlyKeys(raw, PART_KEYS, where);
  const part: Part = {};
  if (raw.text !== undefined) {
    if (typeof raw.text !== "string") throw bad(`${where}.text is not a string`);
    part.text = raw.text;
  }
  if (raw.thought !== undefined) {
    if (typeof raw.thought !== "boolean") throw bad(`${where}.thought is not a boolean`);
    part.thought = raw.thought;
  }
  if (raw.thoughtSignature !== undefined) {
    if (typeof raw.thoughtSignature !== "string") throw bad(`${where}.thoughtSignature is not a string`);
    part.thoughtSignature = raw.thoughtSignature;
  }
  if (raw.functionCall !== undefined) {
    if (!isObject(raw.functionCall) || typeof raw.functionCall.name !== "string") throw bad(`${where}.functionCall needs a name`);
    onlyKeys(raw.functionCall, FUNCTION_CALL_KEYS, `${where}.functionCall`);
    if (raw.functionCall.args !== undefined && !isObject(raw.functionCall.args)) throw bad(`${where}.functionCall.args is not an object`);
    part.functionCall = raw.functionCall as Part["functionCall"];
  }
  if (raw.functionResponse !== undefined) {
    const fr = raw.functionResponse;
    if (!isObject(fr) || typeof fr.name !== "string" || !isObject(fr.response)) throw bad(`${where}.functionResponse needs a name and a response object`);
    onlyKeys(fr, FUNCTION_RESPONSE_KEYS, `${where}.functionResponse`);
    part.functionResponse = fr as Part["functionResponse"];
  }
  if (raw.fileData !== undefined) {
    const fd = raw.fileData;
    if (!isObject(fd) || typeof fd.fileUri !== "string") throw bad(`${where}.fileData needs a fileUri (a handle from /upload)`);
    onlyKeys(fd, FILE_DATA_KEYS, `${where}.fileData`);
    part.fileData = { fileUri: fd.fileUri, mimeType: typeof fd.mimeType === "string" ? fd.mimeType : undefined };
  }
  if (raw.inlineData !== undefined) {
    const d = raw.inlineData;
    if (!isObject(d) || typeof d.mimeType !== "string" || typeof d.data !== "string") throw bad(`${where}.inlineData needs a mimeType and base64 data`);
    onlyKeys(d, INLINE_DATA_KEYS, `${where}.inlineData`);
    if (!INLINE_IMAGE_TYPES.has(d.mimeType))
      throw bad(`${where}.inlineData: only images (${[...INLINE_IMAGE_TYPES].join(", ")}) go inline; upload other media`);
    // Measured before decoding: the check costs nothing however large the string is.
    const bytes = Math.floor((d.data.length * 3) / 4);
    if (bytes > bounds.maxInlineImageBytes + 2) {
      throw new RequestError(413, `${where}.inlineData holds over ${bounds.maxInlineImageBytes} bytes; send a smaller image`, "IMAGE_TOO_LARGE");
    }
    if (!BASE64.test(d.data)) throw bad(`${where}.inlineData.data is not base64`);
    part.inlineData = { mimeType: d.mimeType, data: d.data };
  }
  if (raw.videoMetadata !== undefined) {
    if (!isObject(raw.videoMetadata)) throw bad(`${where}.videoMetadata is not an object`);
    onlyKeys(raw.videoMetadata, VIDEO_METADATA_KEYS, `${where}.videoMetadata`);
    const vm = { ...raw.videoMetadata };
    if (vm.fps !== undefined) {
      if (typeof vm.fps !== "number" || !(vm.fps > 0)) throw bad(`${where}.videoMetadata.fps is not a positive number`);
      // More frames per second, more tokens: lowered to the configured maximum.
      vm.fps = Math.min(vm.fps, bounds.maxVideoFps);
    }
    part.videoMetadata = vm;
  }
  return part;
}

export function checkGenerateBody(raw: unknown, bounds: Bounds, models: Set<string>): GenerateBody {
  if (!isObject(raw)) throw bad("The request body must be a JSON object");
  onlyKeys(raw, BODY_KEYS, "body");
  const model = typeof raw.model === "string" ? raw.model.replace(/^models\//, "") : "";
  // Names the refused model, never the allowed ones (the operator's list is not the client's business).
  if (!models.has(model)) {
    const shown = typeof raw.model === "string" ? raw.model.slice(0, 80) : "(none)";
    throw new RequestError(403, `Model '${shown}' is not allowed here`, "MODEL_NOT_ALLOWED", { model: shown });
  }

  if (!Array.isArray(raw.contents) || raw.contents.length === 0) throw bad("contents must be a non-empty array");
  if (raw.contents.length > bounds.maxTurns) throw new RequestError(413, `contents holds over ${bounds.maxTurns} turns`, "TOO_MANY_TURNS");
  let totalParts = 0;
  const contents: Content[] = raw.contents.map((c: unknown, i: number) => {
    const where = `contents[${i}]`;
    if (!isObject(c)) throw bad(`${where} is not an object`);
    onlyKeys(c, new Set(["role", "parts"]), where);
    if (c.role !== "user" && c.role !== "model") throw bad(`${where}.role must be 'user' or 'model'`);
    if (!Array.isArray(c.parts) || c.parts.length === 0) throw bad(`${where}.parts must be a non-empty array`);
    if (c.parts.length > bounds.maxPartsPerTurn) throw new RequestError(413, `${where} holds over ${bounds.maxPartsPerTurn} parts`, "TOO_MANY_PARTS");
    totalParts += c.parts.length;
    if (totalParts > bounds.maxPartsPerRequest) throw new RequestError(413, `contents holds over ${bounds.maxPartsPerRequest} parts in all`, "TOO_MANY_PARTS");
    return { role: c.role, parts: c.parts.map((p: unknown, j: number) => checkPart(p, `${where}.parts[${j}]`, bounds)) };
  });
  // Each file is billed by its length in tokens every time it is sent: a bounded number per
  // request, and never the same one twice.
  const files = new Set<string>();
  let images = 0;
  for (const c of contents) {
    for (const p of c.parts) {
      if (p.inlineData) {
        // Only the caller's own picture, and one: a model turn never carries inline data.
        if (c.role !== "user") throw bad("inlineData is accepted in user turns only");
        if (++images > 1) throw new RequestError(413, "over 1 inline image in one request", "TOO_MANY_IMAGES");
      }
      if (!p.fileData) continue;
      if (files.has(p.fileData.fileUri))
        throw new RequestError(400, "The same file is attached more than once in this request; attach it once", "DUPLICATE_FILE");
      files.add(p.fileData.fileUri);
      if (files.size > bounds.maxFilesPerRequest) throw new RequestError(413, `over ${bounds.maxFilesPerRequest} files in one request`, "TOO_MANY_FILES");
    }
  }

  const body: GenerateBody = { model, contents };

  if (raw.tools !== undefined) {
    if (!Array.isArray(raw.tools)) throw bad("tools must be an array");
    let count = 0;
    body.tools = raw.tools.map((t: unknown, i: number) => {
      if (!isObject(t)) throw bad(`tools[${i}] is not an object`);
      onlyKeys(t, new Set(["functionDeclarations"]), `tools[${i}] (only functionDeclarations are served)`);
      if (!Array.isArray(t.functionDeclarations)) throw bad(`tools[${i}].functionDeclarations must be an array`);
      const decls = t.functionDeclarations.map((d: unknown, j: number) => {
        const where = `tools[${i}].functionDeclarations[${j}]`;
        if (!isObject(d)) throw bad(`${where} is not an object`);
        onlyKeys(d, DECLARATION_KEYS, where);
        if (typeof d.name !== "string" || !FUNCTION_NAME.test(d.name)) throw bad(`${where}.name is not a function name`);
        return d as unknown as FunctionDeclaration;
      });
      count += decls.length;
      return { functionDeclarations: decls };
    });
    if (count > bounds.maxFunctionDeclarations) throw new RequestError(413, `over ${bounds.maxFunctionDeclarations} function declarations`, "TOO_MANY_TOOLS");
  }

  if (raw.toolConfig !== undefined) {
    if (!isObject(raw.toolConfig)) throw bad("toolConfig is not an object");
    onlyKeys(raw.toolConfig, new Set(["functionCallingConfig"]), "toolConfig");
    const fcc = raw.toolConfig.functionCallingConfig;
    if (fcc !== undefined) {
      if (!isObject(fcc)) throw bad("toolConfig.functionCallingConfig is not an object");
      onlyKeys(fcc, FUNCTION_CALLING_KEYS, "toolConfig.functionCallingConfig");
    }
    body.toolConfig = raw.toolConfig;
  }

  if (raw.systemInstruction !== undefined) {
    const si = raw.systemInstruction;
    if (!isObject(si) || !Array.isArray(si.parts)) throw bad("systemInstruction must be { parts: [{ text }] }");
    onlyKeys(si, new Set(["parts", "role"]), "systemInstruction");
    body.systemInstruction = {
      parts: si.parts.map((p: unknown, i: number) => {
        // A field other than text is named, as everywhere else in the body.
        if (isObject(p)) onlyKeys(p, new Set(["text"]), `systemInstruction.parts[${i}]`);
        if (!isObject(p) || typeof p.text !== "string") throw bad(`systemInstruction.parts[${i}] must be { text }`);
        return { text: p.text };
      }),
    };
  }

  body.generationConfig = checkGenerationConfig(raw.generationConfig, bounds);
  return body;
}

const RESOLUTION_RANK: Record<string, number> = { MEDIA_RESOLUTION_UNSPECIFIED: -1 };
MEDIA_RESOLUTIONS.forEach((r, i) => (RESOLUTION_RANK[r] = i));

/** The generation config with its cost clamped: output and thinking tokens, media resolution. */
function checkGenerationConfig(raw: unknown, bounds: Bounds): Record<string, unknown> {
  if (raw !== undefined && !isObject(raw)) throw bad("generationConfig is not an object");
  const gc: Record<string, unknown> = { ...(raw ?? {}) };
  onlyKeys(gc, GENERATION_KEYS, "generationConfig");
  if (gc.candidateCount !== undefined && gc.candidateCount !== 1) throw bad("generationConfig.candidateCount must be 1");
  const out = gc.maxOutputTokens;
  if (out !== undefined && (!Number.isInteger(out) || (out as number) <= 0)) throw bad("generationConfig.maxOutputTokens is not a positive whole number");
  // Always set: without it a call may write (and think) up to the model's own maximum.
  gc.maxOutputTokens = Math.min((out as number | undefined) ?? Infinity, bounds.maxOutputTokens);
  if (gc.thinkingConfig !== undefined) {
    if (!isObject(gc.thinkingConfig)) throw bad("generationConfig.thinkingConfig is not an object");
    onlyKeys(gc.thinkingConfig, THINKING_KEYS, "generationConfig.thinkingConfig");
    const tc = { ...gc.thinkingConfig };
    const budget = tc.thinkingBudget;
    if (budget !== undefined) {
      if (!Number.isInteger(budget) || (budget as number) < -1)
        throw bad("generationConfig.thinkingConfig.thinkingBudget is not a whole number (-1 for dynamic)");
      // -1 (dynamic) lets the model think as long as it likes: bounded like any other budget.
      tc.thinkingBudget = budget === -1 ? bounds.maxThinkingTokens : Math.min(budget as number, bounds.maxThinkingTokens);
    }
    if (tc.thinkingLevel !== undefined && typeof tc.thinkingLevel !== "string") throw bad("generationConfig.thinkingConfig.thinkingLevel is not a string");
    if (tc.includeThoughts !== undefined && typeof tc.includeThoughts !== "boolean")
      throw bad("generationConfig.thinkingConfig.includeThoughts is not a boolean");
    gc.thinkingConfig = tc;
  }
  // Always set: an absent or UNSPECIFIED resolution is the model's default, which may be higher.
  const rank = gc.mediaResolution === undefined ? -1 : typeof gc.mediaResolution === "string" ? RESOLUTION_RANK[gc.mediaResolution] : undefined;
  if (rank === undefined) throw bad(`generationConfig.mediaResolution must be one of ${Object.keys(RESOLUTION_RANK).join(", ")}`);
  if (rank < 0 || rank > RESOLUTION_RANK[bounds.maxMediaResolution]) gc.mediaResolution = bounds.maxMediaResolution;
  return gc;
}

/** Tokens an inline image is reserved for (Gemini bills 258 per 768 px tile, 1120 at HIGH on Gemini 3). */
const IMAGE_TOKENS = 8192;
const te = new TextEncoder();

/**
 * What one checked call may cost, reserved before it goes upstream. Output is exact: the clamped
 * maxOutputTokens plus the thinking budget. Input is bounded by maxInputTokens (the window) and
 * estimated as the UTF-8 bytes of everything but media (a token is at least a byte), 8192 per
 * inline image and a whole window per file (a file's length in tokens is not known here).
 */
export function worstCaseTokens(body: GenerateBody, bounds: Bounds): number {
  let images = 0;
  let files = 0;
  const text = JSON.stringify(body, (k, v) => {
    if (k === "inlineData") {
      images++;
      return undefined;
    }
    if (k === "fileData") files++;
    return v;
  });
  const input = Math.min(bounds.maxInputTokens, te.encode(text).byteLength + images * IMAGE_TOKENS + files * bounds.maxInputTokens);
  const gc = (body.generationConfig ?? {}) as { maxOutputTokens?: number; thinkingConfig?: { thinkingBudget?: number } };
  const thinking = gc.thinkingConfig?.thinkingBudget ?? bounds.maxThinkingTokens;
  return input + (gc.maxOutputTokens ?? bounds.maxOutputTokens) + thinking;
}

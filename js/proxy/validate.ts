// The shape check of a /generate request. Only what the agent needs passes: text, function calls
// and responses, thought signatures, and fileData that names a handle this proxy issued. Tools
// are function declarations only: Google's own tools (search, URL context, code execution) would
// make the proxy fetch or run what a browser asked for.

export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeFor(status),
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

function codeFor(status: number): string {
  switch (status) {
    case 400:
      return "bad_request";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 410:
      return "gone";
    case 411:
      return "length_required";
    case 413:
      return "too_large";
    case 415:
      return "unsupported_media_type";
    default:
      return "error";
  }
}

export interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: Record<string, unknown>;
  functionResponse?: Record<string, unknown>;
  fileData?: { fileUri: string; mimeType?: string };
  videoMetadata?: Record<string, unknown>;
}

export interface Content {
  role: "user" | "model";
  parts: Part[];
}

export interface GenerateBody {
  model: string;
  contents: Content[];
  tools?: Array<{ functionDeclarations: Record<string, unknown>[] }>;
  toolConfig?: Record<string, unknown>;
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: Record<string, unknown>;
}

interface Bounds {
  maxTurns: number;
  maxPartsPerTurn: number;
  maxFunctionDeclarations: number;
}

const BODY_KEYS = new Set(["model", "contents", "tools", "toolConfig", "systemInstruction", "generationConfig"]);
const PART_KEYS = new Set(["text", "thought", "thoughtSignature", "functionCall", "functionResponse", "fileData", "videoMetadata"]);
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

function checkPart(raw: unknown, where: string): Part {
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
    part.functionCall = raw.functionCall;
  }
  if (raw.functionResponse !== undefined) {
    const fr = raw.functionResponse;
    if (!isObject(fr) || typeof fr.name !== "string" || !isObject(fr.response)) throw bad(`${where}.functionResponse needs a name and a response object`);
    if (fr.parts !== undefined) throw bad(`${where}.functionResponse.parts is not accepted`);
    part.functionResponse = fr;
  }
  if (raw.fileData !== undefined) {
    const fd = raw.fileData;
    if (!isObject(fd) || typeof fd.fileUri !== "string") throw bad(`${where}.fileData needs a fileUri (a handle from /upload)`);
    part.fileData = { fileUri: fd.fileUri, mimeType: typeof fd.mimeType === "string" ? fd.mimeType : undefined };
  }
  if (raw.videoMetadata !== undefined) {
    if (!isObject(raw.videoMetadata)) throw bad(`${where}.videoMetadata is not an object`);
    onlyKeys(raw.videoMetadata, new Set(["startOffset", "endOffset", "fps"]), `${where}.videoMetadata`);
    part.videoMetadata = raw.videoMetadata;
  }
  return part;
}

export function checkGenerateBody(raw: unknown, bounds: Bounds, models: Set<string>): GenerateBody {
  if (!isObject(raw)) throw bad("The request body must be a JSON object");
  onlyKeys(raw, BODY_KEYS, "body");
  const model = typeof raw.model === "string" ? raw.model.replace(/^models\//, "") : "";
  if (!models.has(model)) throw new RequestError(403, "Model not allowed", "model_not_allowed", { allowed: [...models] });

  if (!Array.isArray(raw.contents) || raw.contents.length === 0) throw bad("contents must be a non-empty array");
  if (raw.contents.length > bounds.maxTurns) throw new RequestError(413, `contents holds over ${bounds.maxTurns} turns`, "too_many_turns");
  const contents: Content[] = raw.contents.map((c: unknown, i: number) => {
    const where = `contents[${i}]`;
    if (!isObject(c)) throw bad(`${where} is not an object`);
    onlyKeys(c, new Set(["role", "parts"]), where);
    if (c.role !== "user" && c.role !== "model") throw bad(`${where}.role must be 'user' or 'model'`);
    if (!Array.isArray(c.parts) || c.parts.length === 0) throw bad(`${where}.parts must be a non-empty array`);
    if (c.parts.length > bounds.maxPartsPerTurn) throw new RequestError(413, `${where} holds over ${bounds.maxPartsPerTurn} parts`, "too_many_parts");
    return { role: c.role, parts: c.parts.map((p: unknown, j: number) => checkPart(p, `${where}.parts[${j}]`)) };
  });

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
        return d;
      });
      count += decls.length;
      return { functionDeclarations: decls };
    });
    if (count > bounds.maxFunctionDeclarations) throw new RequestError(413, `over ${bounds.maxFunctionDeclarations} function declarations`, "too_many_tools");
  }

  if (raw.toolConfig !== undefined) {
    if (!isObject(raw.toolConfig)) throw bad("toolConfig is not an object");
    onlyKeys(raw.toolConfig, new Set(["functionCallingConfig"]), "toolConfig");
    body.toolConfig = raw.toolConfig;
  }

  if (raw.systemInstruction !== undefined) {
    const si = raw.systemInstruction;
    if (!isObject(si) || !Array.isArray(si.parts)) throw bad("systemInstruction must be { parts: [{ text }] }");
    onlyKeys(si, new Set(["parts", "role"]), "systemInstruction");
    body.systemInstruction = {
      parts: si.parts.map((p: unknown, i: number) => {
        if (!isObject(p) || typeof p.text !== "string" || Object.keys(p).length !== 1) throw bad(`systemInstruction.parts[${i}] must be { text }`);
        return { text: p.text };
      }),
    };
  }

  if (raw.generationConfig !== undefined) {
    if (!isObject(raw.generationConfig)) throw bad("generationConfig is not an object");
    onlyKeys(raw.generationConfig, GENERATION_KEYS, "generationConfig");
    const cc = raw.generationConfig.candidateCount;
    if (cc !== undefined && cc !== 1) throw bad("generationConfig.candidateCount must be 1");
    body.generationConfig = raw.generationConfig;
  }
  return body;
}

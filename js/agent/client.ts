// The browser side of the proxy's three endpoints. Only the proxy's own URL is ever called; the
// API key and Gemini's URLs stay on the server.

/** The proxy answered with an error, or could not be reached. `message` is safe to show. */
export class ProxyError extends Error {
  constructor(
    message: string,
    /** HTTP status; 0 when the proxy could not be reached. */
    readonly status: number,
    readonly code: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = "ProxyError";
  }
}

export interface ProxyClientOptions {
  /** The proxy's root URL (where it is mounted), e.g. `/api/gemini/` or `http://127.0.0.1:8787/`. */
  proxyUrl: string;
  /**
   * This browser's client id (16-128 characters of `A-Za-z0-9_-`). File handles belong to it.
   * A random one per client object by default; keep one in sessionStorage to reuse handles
   * across reloads.
   */
  clientId?: string;
  /** The fetch to use. `globalThis.fetch`. */
  fetch?: typeof fetch;
}

export interface UploadResult {
  handle: string;
  state: "PROCESSING" | "ACTIVE" | "FAILED";
  expiresAt?: number;
  mimeType: string;
  sizeBytes: number;
}

export interface StatusResult {
  handle: string;
  state: "PROCESSING" | "ACTIVE" | "FAILED";
  expiresAt?: number;
  mimeType?: string;
  details?: string;
}

/** A Gemini `Content`. */
export interface Content {
  role: "user" | "model";
  parts: Part[];
}

/** A Gemini `Part`, as far as the agent uses them. Model parts are kept verbatim. */
export interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
  fileData?: { fileUri: string; mimeType?: string };
  /** A picture sent inline (one render_preview frame). */
  inlineData?: { mimeType: string; data: string };
  [key: string]: unknown;
}

export interface GenerateRequest {
  model: string;
  contents: Content[];
  tools?: Array<{ functionDeclarations: FunctionDeclaration[] }>;
  toolConfig?: Record<string, unknown>;
  systemInstruction?: { parts: Array<{ text: string }> };
  generationConfig?: Record<string, unknown>;
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: Record<string, unknown>;
}

export interface GenerateResponse {
  candidates: Array<{ content?: Content; finishReason?: string; finishMessage?: string }>;
  promptFeedback?: { blockReason?: string };
  usageMetadata?: Record<string, unknown>;
}

export interface ProxyClient {
  readonly clientId: string;
  upload(file: Blob, options: { name?: string; mimeType: string; signal?: AbortSignal }): Promise<UploadResult>;
  status(handle: string, signal?: AbortSignal): Promise<StatusResult>;
  generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse>;
}

const CLIENT_ID = /^[A-Za-z0-9_-]{16,128}$/;

function randomClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return "nc_" + btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function createProxyClient(options: ProxyClientOptions): ProxyClient {
  if (typeof options?.proxyUrl !== "string" || options.proxyUrl === "") throw new TypeError("proxyUrl is required");
  const clientId = options.clientId ?? randomClientId();
  if (!CLIENT_ID.test(clientId)) throw new TypeError("clientId must be 16-128 characters of A-Z a-z 0-9 _ -");
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const root = options.proxyUrl.endsWith("/") ? options.proxyUrl : options.proxyUrl + "/";
  const base = typeof location !== "undefined" ? new URL(root, location.href) : new URL(root);

  async function post<T>(endpoint: string, body: BodyInit, headers: Record<string, string>, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await doFetch(new URL(endpoint, base), { method: "POST", headers: { ...headers, "x-neuralcut-client": clientId }, body, signal });
    } catch (e) {
      if ((e as { name?: string })?.name === "AbortError") throw e;
      throw new ProxyError(`the Gemini proxy could not be reached (${endpoint})`, 0, "unreachable");
    }
    let json: Record<string, unknown> | undefined;
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    if (!res.ok || !json) {
      const message = typeof json?.error === "string" ? json.error : `HTTP ${res.status}`;
      const code = typeof json?.code === "string" ? json.code : "http_" + res.status;
      const details = typeof json?.details === "string" ? json.details : undefined;
      throw new ProxyError(`the Gemini proxy refused ${endpoint} (${res.status}: ${message}${details ? `; ${details}` : ""})`, res.status, code, details);
    }
    return json as T;
  }

  return {
    clientId,
    upload(file, { name, mimeType, signal }) {
      const headers: Record<string, string> = { "content-type": mimeType };
      if (name) headers["x-file-name"] = encodeURIComponent(name.slice(0, 200));
      return post<UploadResult>("upload", file, headers, signal);
    },
    status(handle, signal) {
      return post<StatusResult>("status", JSON.stringify({ handle }), { "content-type": "application/json" }, signal);
    },
    generate(request, signal) {
      return post<GenerateResponse>("generate", JSON.stringify(request), { "content-type": "application/json" }, signal);
    },
  };
}

/** The text of a response's first candidate, without thought parts. */
export function responseText(response: GenerateResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");
}

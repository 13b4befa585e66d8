// Gemini's request and response shapes, as far as NeuralCut uses them: written once for the
// in-page agent (js/agent/client.ts), which builds them, and the proxy (js/proxy/validate.ts),
// which checks them before forwarding.

/** A Gemini `Content`. */
export interface Content {
  role: "user" | "model";
  parts: Part[];
}

/** A Gemini `Part`. Model parts are kept verbatim (unknown fields included). */
export interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
  fileData?: { fileUri: string; mimeType?: string };
  /** A picture sent inline (one render_preview frame). */
  inlineData?: { mimeType: string; data: string };
  videoMetadata?: Record<string, unknown>;
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

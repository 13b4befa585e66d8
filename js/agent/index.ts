// `neuralcut/agent`: the agent loop for an in-browser sidebar (it also runs in Node 20). It sends
// the conversation and the editor's tool declarations to Gemini through the proxy, runs each
// returned function call in the page with editor.callTool, answers with functionResponse parts,
// and repeats until the model answers in text or maxSteps is reached. Model turns are kept
// verbatim, so thought signatures go back to Gemini exactly as they came.

import type { NeuralCutEditor } from "../editor.js";
import type { ToolInfo } from "../types.js";
import { createProxyClient, type Content, type FunctionDeclaration, type GenerateRequest, type Part, type ProxyClient } from "./client.js";
import { createGeminiContextProvider, type GeminiContextProvider } from "./context.js";
import { toFunctionDeclarations } from "./schema.js";
import { createTranscribeTool, type HostTool, type LocalTranscriber } from "./transcribe.js";

export { createProxyClient, ProxyError, responseText } from "./client.js";
export type { Content, Part, FunctionDeclaration, GenerateRequest, GenerateResponse, ProxyClient, ProxyClientOptions, UploadResult, StatusResult } from "./client.js";
export { createGeminiContextProvider, mimeTypeFor } from "./context.js";
export type { GeminiContextOptions, GeminiContextProvider } from "./context.js";
export { toFunctionDeclarations, toGeminiSchema } from "./schema.js";
export { createTranscribeTool, cleanSegments, toTimeline, TRANSCRIBE_INPUT_SCHEMA, TRANSCRIBE_OUTPUT_SCHEMA } from "./transcribe.js";
export type { HostTool, LocalTranscriber, SourceSegment, TranscribeToolOptions } from "./transcribe.js";

export const DEFAULT_MODEL = "gemini-2.5-flash";

export const DEFAULT_SYSTEM_INSTRUCTION = [
  "You are the editing assistant inside a web video editor. You change the project only by calling the tools you are given.",
  "Call list_project_assets and list_timeline when you do not know the ids you need; never invent ids.",
  "All times are timeline seconds. To remove a range, split at its start and end, then delete the elements that lie inside it.",
  "Call load_asset_context to watch or listen to an asset before decisions that depend on its content.",
  "If a tool returns an error, read its message and hint, fix the call and try again, or explain what is wrong.",
  "Reply briefly in the user's language, saying what you changed.",
].join("\n");

/** What the sidebar renders. */
export type AgentEvent =
  | { type: "user"; text: string }
  | { type: "text"; text: string }
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown>; readOnly: boolean }
  | { type: "tool_result"; id: string; name: string; result: Record<string, unknown>; isError: boolean }
  | { type: "error"; code: string; message: string }
  | { type: "done"; text: string; steps: number };

/** What `confirm` is asked before a tool that is not read-only runs. */
export interface ConfirmRequest {
  name: string;
  args: Record<string, unknown>;
  title: string;
  annotations: ToolInfo["annotations"];
}

export interface AgentOptions {
  editor: NeuralCutEditor;
  /** The proxy's root URL: where `createGeminiProxy` is mounted. */
  proxyUrl: string;
  /** A model the proxy allows. `gemini-2.5-flash`. */
  model?: string;
  /** Asked before each write tool; resolve false to decline (the model is told). Read-only tools never ask. */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
  /** Most model calls per `send`. 12. */
  maxSteps?: number;
  onEvent?: (event: AgentEvent) => void;
  /** Replaces DEFAULT_SYSTEM_INSTRUCTION. */
  systemInstruction?: string;
  /** Extra generation settings passed to Gemini (temperature, thinkingConfig, ...). */
  generationConfig?: Record<string, unknown>;
  /** This browser's client id at the proxy (see createProxyClient). */
  clientId?: string;
  fetch?: typeof fetch;
  /** Make this agent's Gemini context provider serve the editor's load_asset_context. true. */
  connectContext?: boolean;
  /** Bounds of load_asset_context's wait for ACTIVE, and its summary. */
  context?: { maxWaitMs?: number; pollIntervalMs?: number; summarize?: boolean; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> };
  /** A local transcriber (e.g. Whisper in a worker) for transcribe_video instead of Gemini. */
  transcriber?: LocalTranscriber;
  /** More host-side tools offered to the model next to the editor's. */
  tools?: HostTool[];
}

export interface Agent {
  /** Sends a user message and runs the loop; resolves with the model's final text. */
  send(text: string, options?: { signal?: AbortSignal }): Promise<string>;
  /** The conversation so far (Gemini contents, model turns verbatim). */
  history(): Content[];
  /** Forgets the conversation. */
  reset(): void;
  /** The function declarations sent to Gemini. */
  declarations(): FunctionDeclaration[];
  /** Runs one tool the way the loop does (host tools included), without asking confirm. */
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
  readonly client: ProxyClient;
  readonly contextProvider: GeminiContextProvider;
  /** transcribe_video and any extra host tools. */
  readonly hostTools: HostTool[];
}

/** Thrown by `send` for failures of the loop itself (the proxy, an empty answer, a busy agent). */
export class AgentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "AgentError";
  }
}

function abortError(signal?: AbortSignal): Error {
  const reason = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error("The agent was cancelled");
  e.name = "AbortError";
  return e;
}

function isAbort(e: unknown): boolean {
  return (e as { name?: string })?.name === "AbortError";
}

export function createAgent(options: AgentOptions): Agent {
  const { editor } = options;
  if (!editor || typeof editor.callToolUntyped !== "function" || typeof editor.tools !== "function") throw new TypeError("createAgent needs an editor from createEditor()");
  const model = options.model ?? DEFAULT_MODEL;
  const maxSteps = Math.max(1, Math.floor(options.maxSteps ?? 12));
  const client = createProxyClient({ proxyUrl: options.proxyUrl, clientId: options.clientId, fetch: options.fetch });
  const contextProvider = createGeminiContextProvider({ client, model, fetch: options.fetch, ...options.context });
  if (options.connectContext !== false) editor.setContextProvider(contextProvider);
  const hostTools: HostTool[] = [createTranscribeTool({ editor, client, model, transcriber: options.transcriber }), ...(options.tools ?? [])];
  const hostByName = new Map(hostTools.map((t) => [t.name, t]));
  const emit = (event: AgentEvent) => {
    try {
      options.onEvent?.(event);
    } catch (e) {
      // A sidebar's rendering bug must not break the loop.
      if (typeof reportError === "function") reportError(e);
    }
  };

  let contents: Content[] = [];
  let attached = new Set<string>();
  let busy = false;
  let callCounter = 0;

  function catalog(): Map<string, { title: string; annotations: ToolInfo["annotations"] }> {
    const m = new Map<string, { title: string; annotations: ToolInfo["annotations"] }>();
    for (const t of editor.tools()) if (!hostByName.has(t.name)) m.set(t.name, t);
    for (const t of hostTools) m.set(t.name, t);
    return m;
  }

  function declarations(): FunctionDeclaration[] {
    return toFunctionDeclarations([...editor.tools().filter((t) => !hostByName.has(t.name)), ...hostTools]);
  }

  async function callTool(name: string, args: Record<string, unknown> = {}, callOptions: { signal?: AbortSignal } = {}): Promise<Record<string, unknown>> {
    try {
      const host = hostByName.get(name);
      const result = host ? await host.call(args, callOptions) : await editor.callToolUntyped(name, args);
      return result && typeof result === "object" ? result : { error: "The tool returned nothing", code: "NO_RESULT" };
    } catch (e) {
      const code = typeof (e as { code?: unknown })?.code === "string" ? (e as { code: string }).code : "TOOL_FAILED";
      return { error: e instanceof Error ? e.message : String(e), code };
    }
  }

  /** Appends parts as a user turn, merging with a trailing user turn. */
  function pushUser(parts: Part[]): void {
    const last = contents[contents.length - 1];
    if (last && last.role === "user") last.parts.push(...parts);
    else contents.push({ role: "user", parts });
  }

  async function send(text: string, sendOptions: { signal?: AbortSignal } = {}): Promise<string> {
    if (typeof text !== "string" || text.trim() === "") throw new TypeError("send takes a non-empty message");
    if (busy) throw new AgentError("busy", "The agent is still answering the previous message");
    busy = true;
    const { signal } = sendOptions;
    try {
      if (signal?.aborted) throw abortError(signal);
      emit({ type: "user", text });
      pushUser([{ text }]);
      const tools = catalog();
      const request = (): GenerateRequest => ({
        model,
        contents,
        tools: [{ functionDeclarations: declarations() }],
        systemInstruction: { parts: [{ text: options.systemInstruction ?? DEFAULT_SYSTEM_INSTRUCTION }] },
        ...(options.generationConfig ? { generationConfig: options.generationConfig } : {}),
      });
      let lastText = "";
      for (let step = 1; step <= maxSteps; step++) {
        let response;
        try {
          response = await client.generate(request(), signal);
        } catch (e) {
          if (isAbort(e) || signal?.aborted) throw abortError(signal);
          const message = e instanceof Error ? e.message : String(e);
          emit({ type: "error", code: "proxy", message });
          throw new AgentError("proxy", message);
        }
        const candidate = response.candidates?.[0];
        const content = candidate?.content;
        if (!content || !Array.isArray(content.parts) || content.parts.length === 0) {
          const why = response.promptFeedback?.blockReason ?? candidate?.finishReason ?? "no candidate";
          const message = `The model returned no answer (${why})`;
          emit({ type: "error", code: "empty_response", message });
          throw new AgentError("empty_response", message);
        }
        // Verbatim: every part, with its thoughtSignature, goes back unchanged.
        contents.push(content.role === "model" ? content : { ...content, role: "model" });
        const stepText = content.parts
          .filter((p) => typeof p.text === "string" && !p.thought)
          .map((p) => p.text as string)
          .join("");
        if (stepText) {
          lastText = stepText;
          emit({ type: "text", text: stepText });
        }
        const calls = content.parts.filter((p) => p.functionCall && typeof p.functionCall.name === "string");
        if (calls.length === 0) {
          emit({ type: "done", text: stepText, steps: step });
          return stepText;
        }
        const answers: Part[] = [];
        const files: Part[] = [];
        let cancelled = false;
        for (const part of calls) {
          const fc = part.functionCall!;
          const name = fc.name;
          const args = fc.args && typeof fc.args === "object" && !Array.isArray(fc.args) ? fc.args : {};
          const id = fc.id ?? `call_${++callCounter}`;
          let result: Record<string, unknown>;
          if (cancelled || signal?.aborted) {
            cancelled = true;
            result = { error: "Cancelled by the user", code: "CANCELLED" };
          } else {
            const info = tools.get(name);
            const readOnly = info?.annotations.readOnlyHint === true;
            emit({ type: "tool_call", id, name, args, readOnly });
            let allowed = true;
            if (!readOnly && info && options.confirm) {
              try {
                allowed = (await options.confirm({ name, args, title: info.title, annotations: info.annotations })) === true;
              } catch {
                allowed = false;
              }
            }
            if (signal?.aborted) {
              cancelled = true;
              result = { error: "Cancelled by the user", code: "CANCELLED" };
            } else {
              result = allowed ? await callTool(name, args, { signal }) : { error: "The user declined this change", code: "DECLINED", hint: "Ask the user what they want instead." };
            }
            const isError = typeof result.error === "string";
            // A picture for the model (render_preview): sent as an inline part after the answers.
            // Only the newest stays in the history; older ones become a note.
            const image = result.inlineImage as { mimeType?: unknown; data?: unknown } | undefined;
            if (!isError && image && typeof image.mimeType === "string" && typeof image.data === "string") {
              const { inlineImage: _, ...rest } = result;
              result = rest;
              for (const c of contents) c.parts = c.parts.map((p) => (p.inlineData ? { text: "(an earlier preview image, no longer attached)" } : p));
              for (let i = files.length - 1; i >= 0; i--) if (files[i].inlineData) files.splice(i, 1);
              files.push({ inlineData: { mimeType: image.mimeType, data: image.data } });
            }
            emit({ type: "tool_result", id, name, result, isError });
            if (name === "load_asset_context" && !isError && result.status === "loaded" && typeof result.fileUri === "string" && !attached.has(result.fileUri)) {
              attached.add(result.fileUri);
              const mimeType = contextProvider.mimeTypeOf(result.fileUri);
              files.push({ fileData: mimeType ? { fileUri: result.fileUri, mimeType } : { fileUri: result.fileUri } });
            }
          }
          const isError = typeof result.error === "string";
          const fr: NonNullable<Part["functionResponse"]> = { name, response: isError ? { error: result } : { output: result } };
          if (fc.id !== undefined) fr.id = fc.id;
          answers.push({ functionResponse: fr });
        }
        // Every call gets its answer, even when cancelled, so the history stays valid for Gemini.
        pushUser([...answers, ...files]);
        if (cancelled) throw abortError(signal);
      }
      const message = `Stopped after ${maxSteps} model calls without a final answer`;
      emit({ type: "error", code: "max_steps", message });
      emit({ type: "done", text: lastText, steps: maxSteps });
      return lastText;
    } finally {
      busy = false;
    }
  }

  return {
    send,
    history: () => structuredClone(contents),
    reset: () => {
      contents = [];
      attached = new Set();
    },
    declarations,
    callTool,
    client,
    contextProvider,
    hostTools,
  };
}

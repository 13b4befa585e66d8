// The agent's public types: its options, its events, what confirm / onPlan / askUser are asked,
// what a run changed, and the Agent itself. index.ts re-exports them; the panel imports them.
import type { ToolInfo } from "../types.js";
import type { Finding } from "./check.js";
import type { CheckRenderer } from "../check/index.js";
import type { ClipExporter } from "./review-clip.js";
import type { Content, FunctionDeclaration, ProxyClient, ProxyHeaders, RetryOptions } from "./client.js";
import type { GeminiContextProvider } from "./context.js";
import type { Mention } from "./data.js";
import type { Skill } from "./skills/index.js";
import type { HostTool, LocalTranscriber } from "./transcribe.js";
import type { NeuralCutEditor } from "../editor.js";

/** How the agent treats tools that change the project: ask `confirm` before each, run them, or refuse them. */
export type PermissionMode = "ask" | "allow" | "readonly";
/** Every PermissionMode, for checking a mode a host passed. */
export const PERMISSIONS: readonly PermissionMode[] = ["ask", "allow", "readonly"];

/** An element in a run's before/after comparison. */
export interface ElementRef {
  id: string;
  type: string;
  name?: string;
  trackId: string;
}

/** What a run changed on the timeline, from comparing it before and after the run. */
export interface RunChanges {
  added: ElementRef[];
  removed: ElementRef[];
  changed: ElementRef[];
}

/** Token counts of a model call, from Gemini's usageMetadata (output includes thinking). */
export interface TokenCounts {
  promptTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** A plan the model submitted (submit_plan) and what the user decided. */
export interface Plan {
  steps: string[];
  summary?: string;
}
export interface PlanDecision {
  decision: "approve" | "reject" | "edit";
  /** With "edit": the steps to carry out instead. */
  steps?: string[];
  /** What the user said; given to the model. */
  feedback?: string;
}
export interface Question {
  question: string;
  options?: string[];
}

/** What the sidebar renders. */
export type AgentEvent =
  /** `text` is what the user typed; `mentions` went with it as data (Mentions). */
  | { type: "user"; text: string; mentions?: Mention[] }
  /** A piece of the model's reply as it streams in (thought parts excluded); `text` follows with the whole turn. */
  | { type: "text_delta"; text: string }
  | { type: "text"; text: string }
  /** `summary` is a readable line ("Split at 00:03.00") from the registry's template. */
  | { type: "tool_call"; id: string; name: string; args: Record<string, unknown>; readOnly: boolean; summary: string }
  | { type: "tool_result"; id: string; name: string; result: Record<string, unknown>; isError: boolean }
  /** Something the user may like to know that does not stop the loop (a retry, a re-upload). */
  | { type: "notice"; code: "RETRY" | "REUPLOAD" | "MALFORMED_CALL" | "HISTORY_TRIMMED"; message: string }
  | { type: "error"; code: string; message: string; details?: string }
  | { type: "permission"; mode: PermissionMode }
  | { type: "plan"; steps: string[]; summary?: string }
  | { type: "question"; question: string; options?: string[] }
  | { type: "usage"; last: TokenCounts; session: TokenCounts }
  /** `phase: "loading"` while a local transcriber loads its model. */
  | { type: "progress"; kind: "upload" | "transcription"; assetId: string; fraction: number; phase?: "loading" }
  /** Stop was pressed: the run ended, its edits so far are kept. */
  | { type: "stopped" }
  /** What check_timeline found after a run that edited (an empty list: nothing); the model is
   * sent the findings once to fix them. */
  | { type: "check"; findings: Finding[] }
  | ({ type: "run_summary" } & RunChanges)
  | { type: "done"; text: string; steps: number; changes: RunChanges };

/** What `confirm` is asked: before a tool that is not read-only runs (`kind: "tool"`), and before
 * an asset's bytes are uploaded to Gemini (`kind: "upload"`, with `upload`). */
export interface ConfirmRequest {
  kind: "tool" | "upload";
  name: string;
  args: Record<string, unknown>;
  title: string;
  annotations: ToolInfo["annotations"];
  /** For uploads: what would leave the machine. */
  upload?: { assetId: string; assetName: string; assetType: string; sizeBytes: number; mimeType: string };
  /** Aborts when the message is cancelled; a dialog should close then. */
  signal?: AbortSignal;
}

export interface AgentOptions {
  editor: NeuralCutEditor;
  /** The proxy's root URL: where `createGeminiProxy` is mounted. */
  proxyUrl: string;
  /** A model the proxy allows. `gemini-2.5-flash`. */
  model?: string;
  /** Asked before each write tool and before each upload; resolve false to decline (the model is told). */
  confirm?: (request: ConfirmRequest) => boolean | Promise<boolean>;
  /** Without `confirm`, uploads of the user's media to Gemini need this. false. */
  allowUploads?: boolean;
  /** Most model calls per `send`. 12. */
  maxSteps?: number;
  /** Most destructive tool calls (destructiveHint) run per `send`; later ones are refused. 25. */
  maxDestructiveCalls?: number;
  /** Most timeline elements removed per `send`, counted inside `batch` too; a call that would
   * go past it is refused with nothing changed. `maxDestructiveCalls` when given, else 25. */
  maxRemovedElements?: number;
  onEvent?: (event: AgentEvent) => void;
  /** Replaces DEFAULT_SYSTEM_INSTRUCTION. */
  systemInstruction?: string;
  /** Extra generation settings passed to Gemini (temperature, thinkingConfig, ...). */
  generationConfig?: Record<string, unknown>;
  /** This browser's client id at the proxy (see createProxyClient). */
  clientId?: string;
  /** Sent with every proxy request (an object, or a function returning one, possibly async). */
  headers?: ProxyHeaders;
  /** Retries of 429 and 5xx answers. `{ retries: 3, baseDelayMs: 1000, maxDelayMs: 60000 }`. */
  retry?: RetryOptions;
  /** Waits between retries; replaceable in tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A saved conversation to start from (Gemini contents, e.g. a stored `agent.history()`), or the
   * bounds of the history sent, below the proxy's own: turns, and bytes of contents (256 KiB). */
  history?: Content[] | { maxTurns?: number; maxBytes?: number };
  /** A cached file expiring sooner than this is checked with the proxy before use. 10 minutes. */
  nearExpiryMs?: number;
  fetch?: typeof fetch;
  /** Make this agent's Gemini context provider serve the editor's load_asset_context. true. */
  connectContext?: boolean;
  /** Bounds of load_asset_context's wait for ACTIVE, and its summary. */
  context?: { maxWaitMs?: number; pollIntervalMs?: number; summarize?: boolean; sleep?: (ms: number, signal?: AbortSignal) => Promise<void> };
  /** A local transcriber (e.g. Whisper in a worker) for transcribe_video instead of Gemini. */
  transcriber?: LocalTranscriber;
  /** More host-side tools offered to the model next to the editor's. */
  tools?: HostTool[];
  /** Stream replies (`text_delta` events) through the proxy's `stream` route; false uses `generate`. true. */
  stream?: boolean;
  /** "ask" (confirm before each edit), "allow" (run edits), "readonly" (refuse edits: READ_ONLY). "ask". */
  permission?: PermissionMode;
  /** Make each message's edits one undo step (editor.beginGroup/endGroup). true. */
  group?: boolean;
  /** Offer review_clip (a span rendered small with its sound, uploaded with consent, for the
   * model to watch) where the page can encode video. true. */
  reviewClips?: boolean;
  /** How review_clip renders its clip (default: neuralcut/export of the editor, MP4). */
  exportClip?: ClipExporter;
  /** Run check_timeline when a message's run changed the timeline, report its findings (a
   * `check` event) and send them to the model once to fix. true. */
  checkTimeline?: boolean;
  /** Draws frames for the check's `black` and `frozen` findings: `neuralcut/render`'s
   * `createFrameRenderer` over the page's media, or a function that makes one on first use.
   * Without it the check judges the timeline and the mix only. */
  checkRenderer?: CheckRenderer | (() => CheckRenderer | Promise<CheckRenderer>);
  /** Offers submit_plan to the model; resolves with the user's decision. Without it the tool is not declared. */
  onPlan?: (plan: Plan, options: { signal: AbortSignal }) => PlanDecision | Promise<PlanDecision>;
  /** Offers ask_user to the model; resolves with the user's answer. Without it the tool is not declared. */
  askUser?: (question: Question, options: { signal: AbortSignal }) => string | Promise<string>;
  /** The host's own skills, next to the built-in ones (same name: the host's replaces it). */
  skills?: Skill[];
}

export interface Agent {
  /** Sends a user message and runs the loop; resolves with the model's final text. `mentions`
   * (items the user picked with @) go after the message as a part fenced as data. */
  send(text: string, options?: { signal?: AbortSignal; mentions?: Mention[] }): Promise<string>;
  /** The conversation so far (Gemini contents, model turns verbatim). */
  history(): Content[];
  /** Cancels a running message, then forgets the conversation. */
  reset(): void;
  /** Stops the running message: its model call, running tool and pending questions; `send`
   * rejects with STOPPED, the edits made so far stay. Nothing happens when none runs. */
  stop(): void;
  /** Runs the last message again after it failed or was stopped, from where it ended (the
   * message is not added twice). Rejects with NOTHING_TO_RETRY when the last one succeeded. */
  retry(options?: { signal?: AbortSignal }): Promise<string>;
  /** Replaces the conversation with saved contents (not while a message runs: BUSY). */
  restore(contents: Content[]): void;
  /** Whether a message is running. */
  running(): boolean;
  permission(): PermissionMode;
  setPermission(mode: PermissionMode): void;
  /** Tokens of the last model call and of the whole session. */
  usage(): { last: TokenCounts; session: TokenCounts };
  /** The function declarations sent to Gemini. */
  declarations(): FunctionDeclaration[];
  /** Runs one tool the way the loop does (host tools included, uploads asking consent), without
   * asking confirm for the tool itself. */
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<Record<string, unknown>>;
  readonly client: ProxyClient;
  readonly contextProvider: GeminiContextProvider;
  /** transcribe_video and any extra host tools. */
  readonly hostTools: HostTool[];
}

/** Why `send` failed: the proxy, an empty or malformed answer, a step too large to send, or a
 * message sent while the previous one is still being answered. */
export type AgentErrorCode = "PROXY" | "EMPTY_RESPONSE" | "MALFORMED_CALL" | "TOO_LARGE" | "BUSY" | "STOPPED" | "NOTHING_TO_RETRY";

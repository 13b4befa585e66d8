// The editor handle: a thin TypeScript shell over the wasm `WasmEditor`. Tool arguments cross
// the boundary as one JSON string and results come back as one (see docs/package.md for why);
// change notifications are queued and delivered after the call that caused them has returned.
import { loadEngine, openEngine, type WasmEditor } from "./engine.js";
import { NeuralCutError, rethrow } from "./errors.js";
import { OptionsRefusal, optionsJson } from "./options-json.js";
import type { AudioPlan, ElementKind, Frame } from "./generated/tools.js";
import { TOOL_CATALOG, type ActiveEffect, type EffectType, type ToolArgsMap, type ToolInfo, type ToolName, type ToolResultMap } from "./generated/tools.js";
import type {
  AddAssetOptions,
  AddStickerOptions,
  AssetSource,
  AssetType,
  ChangeEvent,
  ContextProvider,
  ContextProviderRequest,
  CreateEditorOptions,
  ProjectJson,
  ProviderReport,
  ToolErrorResult,
} from "./types.js";

/** The arguments parameter of `callTool`: optional when every argument of the tool is. */
// biome-ignore lint/complexity/noBannedTypes: `{} extends T` asks whether T has no required key
export type ToolArgsParam<N extends ToolName> = {} extends ToolArgsMap[N] ? [args?: ToolArgsMap[N]] : [args: ToolArgsMap[N]];

/** What `callTool(name)` resolves to: the tool's result or an error value. */
export type ToolCallResult<N extends ToolName> = ToolResultMap[N] | ToolErrorResult;

const ASSET_TYPES: readonly AssetType[] = ["video", "audio", "image"];

/** True when a tool call resolved to an error value. */
export function isToolError(result: unknown): result is ToolErrorResult {
  return typeof result === "object" && result !== null && typeof (result as { error?: unknown }).error === "string";
}

/** JSON text of tool arguments. A value JSON cannot express (a function, a cycle, a BigInt) is
 * sent as `false`, which the engine answers with "Arguments must be a JSON object". */
function argsJson(args: unknown): string {
  if (args === undefined) return "{}";
  try {
    return JSON.stringify(args) ?? "false";
  } catch {
    return "false";
  }
}

function checkProvider(p: ContextProvider | undefined): ContextProvider | undefined {
  if (p === undefined || p === null) return undefined;
  if (typeof p !== "object" || typeof p.load !== "function") {
    throw new NeuralCutError("INVALID_PROVIDER", "contextProvider needs a load(request) function");
  }
  const types = p.supportedTypes;
  if (types !== undefined && (!Array.isArray(types) || types.some((t) => !ASSET_TYPES.includes(t)))) {
    throw new NeuralCutError("INVALID_PROVIDER", "contextProvider.supportedTypes may hold video, audio and image only");
  }
  return p;
}

type Listener = (event: ChangeEvent) => void;

/** Makes an editor around an engine instance (the constructor is private to keep the engine's
 * wasm-bindgen types out of the public typings). */
let construct: (inner: WasmEditor, provider: ContextProvider | undefined) => NeuralCutEditor;

/** TEST ONLY (docs/mcp.md, "Panics"): provokes a real panic in the engine. */
let testOnlyPanic: (editor: NeuralCutEditor, tool: string, args: unknown, message: string) => void;

/** What a host adapter in this package (js/opencut.ts) may do with an editor's engine beyond the
 * public methods: replace the project wholesale, and read engine-side views of it, by the engine
 * method's name (the engine's wasm types stay out of the public typings). Not exported by the
 * package; the editor itself knows no host format. */
export interface EngineAccess {
  /** Calls the engine's `method` as one change from `source`; on success the asset sources become
   * `sources` (when given) and listeners hear of the change. Throws NeuralCutError, and then
   * nothing changed. */
  replace(source: ChangeEvent["source"], method: string, args: unknown[], sources?: Map<string, AssetSource>): void;
  /** Calls the engine's reading `method`; throws NeuralCutError. */
  read(method: string, args?: unknown[]): unknown;
}

const call = (engine: WasmEditor, method: string, args: unknown[]): unknown =>
  (engine as unknown as Record<string, (...a: unknown[]) => unknown>)[method](...args);

let accessFor: (editor: NeuralCutEditor) => EngineAccess;

/** The engine behind `editor`, for the package's host adapters. */
export function engineAccess(editor: NeuralCutEditor): EngineAccess {
  return accessFor(editor);
}

export class NeuralCutEditor {
  #inner: WasmEditor | undefined;
  #sources = new Map<string, AssetSource>();
  #listeners = new Set<Listener>();
  #provider: ContextProvider | undefined;

  static {
    construct = (inner, provider) => new NeuralCutEditor(inner, provider);
    testOnlyPanic = (editor, tool, args, message) => editor.#engine.__testOnlyPanic(tool, argsJson(args), message);
    accessFor = (editor) => ({
      replace(source, method, args, sources) {
        const before = editor.#engine.revision();
        try {
          call(editor.#engine, method, args);
        } catch (e) {
          rethrow(e);
        }
        if (sources) editor.#sources = sources;
        editor.#changed(before, { source });
      },
      read(method, args = []) {
        try {
          return call(editor.#engine, method, args);
        } catch (e) {
          rethrow(e);
        }
      },
    });
  }

  /** Use `createEditor`. */
  private constructor(inner: WasmEditor, provider: ContextProvider | undefined) {
    this.#inner = inner;
    this.#provider = provider;
  }

  get #engine(): WasmEditor {
    if (!this.#inner) throw new NeuralCutError("EDITOR_DISPOSED", "This editor was disposed");
    return this.#inner;
  }

  /** Adds a media asset to the project library and returns its id. Throws NeuralCutError. */
  addAsset(options: AddAssetOptions): string {
    if (typeof options !== "object" || options === null) {
      throw new NeuralCutError("INVALID_ASSET", "addAsset takes an options object { name, type, ... }");
    }
    const { file, url, ...rest } = options;
    const before = this.#engine.revision();
    let id: string;
    try {
      id = this.#engine.addAsset(checkedJson(rest, "INVALID_ASSET", "addAsset"));
    } catch (e) {
      rethrow(e);
    }
    if (file !== undefined || url !== undefined) this.#sources.set(id, { file, url });
    this.#changed(before, { source: "asset" });
    return id;
  }

  /** The file or URL given to `addAsset` for this asset, if any. */
  assetSource(id: string): AssetSource | undefined {
    const s = this.#sources.get(id);
    return s && { ...s };
  }

  /** Adds a sticker to the catalog `add_sticker` draws from and returns its id. */
  addSticker(options: AddStickerOptions): string {
    if (typeof options !== "object" || options === null) {
      throw new NeuralCutError("INVALID_STICKER", "addSticker takes an options object { id, name, url? }");
    }
    const before = this.#engine.revision();
    let id: string;
    try {
      id = this.#engine.addSticker(checkedJson(options, "INVALID_STICKER", "addSticker"));
    } catch (e) {
      rethrow(e);
    }
    this.#changed(before, { source: "sticker" });
    return id;
  }

  /** The tool catalog: name, title, description, inputSchema, outputSchema, annotations. */
  tools(): ToolInfo[] {
    this.#engine; // throws once disposed, like every other method
    return structuredClone(TOOL_CATALOG) as ToolInfo[];
  }

  /** Runs a tool. Resolves to its result or to `{ error, code, hint?, ... }`; never rejects for
   * a tool error. The change (if any) is committed before the returned promise settles. */
  callTool<N extends ToolName>(name: N, ...args: ToolArgsParam<N>): Promise<ToolCallResult<N>> {
    return this.callToolUntyped(name, args[0]) as Promise<ToolCallResult<N>>;
  }

  /** `callTool` for names and arguments known only at run time (an LLM's function call). */
  async callToolUntyped(name: string, args?: unknown): Promise<Record<string, unknown>> {
    const tool = typeof name === "string" ? name : String(name);
    if (tool === "load_asset_context" && this.#provider) return this.#loadContext(this.#provider, args);
    const before = this.#engine.revision();
    const out = JSON.parse(this.#engine.callTool(tool, argsJson(args)));
    this.#changed(before, { source: "tool", tool });
    return out;
  }

  /** load_asset_context through the configured provider: begin, provider.load, finish. */
  async #loadContext(provider: ContextProvider, args: unknown): Promise<Record<string, unknown>> {
    let step;
    try {
      step = JSON.parse(this.#engine.beginContext(argsJson(args), provider.supportedTypes ?? [...ASSET_TYPES], Date.now()));
    } catch (e) {
      rethrow(e);
    }
    if (step.kind === "done") return step.output;
    const request: ContextProviderRequest = { ...step.request, source: { ...this.#sources.get(step.request.asset.id) } };
    let report: string | undefined;
    let failure: string | undefined;
    try {
      const r: ProviderReport | undefined = await provider.load(request);
      if (r && typeof r === "object") {
        report = JSON.stringify({ fileUri: r.fileUri, status: r.status, expiresAt: r.expiresAt, summary: r.summary });
      }
    } catch (e) {
      failure = e instanceof Error ? e.message : String(e);
    }
    return JSON.parse(this.#engine.finishContext(step.ticket, report, failure, Date.now()));
  }

  /** Drops the cached load_asset_context file of an asset (its provider reported it gone), so the
   * next call uploads again. False when nothing was cached. */
  forgetContext(assetId: string): boolean {
    return this.#engine.forgetContext(String(assetId));
  }

  /** Serves load_asset_context from now on (undefined: only cached contexts answer). */
  setContextProvider(provider: ContextProvider | undefined): void {
    this.#provider = checkProvider(provider);
  }

  /** Undoes the last committed change; false when there is nothing to undo. */
  undo(): boolean {
    const before = this.#engine.revision();
    const done = this.#engine.undo();
    this.#changed(before, { source: "undo" });
    return done;
  }

  redo(): boolean {
    const before = this.#engine.revision();
    const done = this.#engine.redo();
    this.#changed(before, { source: "redo" });
    return done;
  }

  /**
   * Opens an undo group: the changes committed until the matching `endGroup` undo and redo as one
   * step named `label` (an agent's run, a compound gesture). Groups nest; the outermost one names
   * the step. Every change still emits its own change event.
   */
  beginGroup(label: string): void {
    if (typeof label !== "string") throw new NeuralCutError("INVALID_OPTIONS", "beginGroup takes a label string");
    this.#engine.beginGroup(label);
  }

  /** Closes the innermost undo group; false when none is open. A group that changed nothing
   * (or came back to where it started) leaves no undo step. */
  endGroup(): boolean {
    return this.#engine.endGroup();
  }

  /** Runs `fn` inside an undo group (`beginGroup`/`endGroup`), closing it however `fn` ends. */
  async group<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
    this.beginGroup(label);
    try {
      return await fn();
    } finally {
      this.endGroup();
    }
  }

  canUndo(): boolean {
    return this.#engine.canUndo();
  }

  canRedo(): boolean {
    return this.#engine.canRedo();
  }

  /** Bumped on every committed change (tools, undo/redo, assets, stickers). */
  revision(): number {
    return this.#engine.revision();
  }

  /**
   * The effect elements active at `seconds`, bottom to top (the order to apply them in), with
   * every parameter filled in: hand them to `neuralcut/effects`' `render({ effects })`.
   */
  effectsAt(seconds: number): ActiveEffect[] {
    let json: string;
    try {
      json = this.#engine.effectsAtJson(seconds);
    } catch (e) {
      rethrow(e);
    }
    return JSON.parse(json);
  }

  /**
   * The picture at `seconds` as data: its layers bottom first, each placed as OpenCut places it
   * (docs/render.md). `null` without a project. `neuralcut/render` draws it.
   */
  frameAt(seconds: number): Frame | null {
    let json: string;
    try {
      json = this.#engine.frameAtJson(seconds);
    } catch (e) {
      rethrow(e);
    }
    return JSON.parse(json);
  }

  /**
   * The clips heard over `[from, to)` seconds (docs/export.md): where each starts and ends, its
   * source start and rate, and its linear gain every `step` seconds (one value when the volume
   * is not animated). Muted tracks and elements, and videos with their own sound off, are left
   * out. `null` without a project; NeuralCutError INVALID_SECONDS for a bad span.
   */
  audioPlan(from: number, to: number, step = 0.01): AudioPlan | null {
    let json: string;
    try {
      json = this.#engine.audioPlanJson(from, to, step);
    } catch (e) {
      rethrow(e);
    }
    return JSON.parse(json);
  }

  /** The element types the host draws (the `elementKinds` option of `createEditor`). */
  elementKinds(): ElementKind[] {
    return this.#engine.elementKinds() as ElementKind[];
  }

  /** Declares the element types the host draws, as the `elementKinds` option of `createEditor`
   * does (`connectOpenCut` sets OpenCut's). Not an undo step. Throws NeuralCutError
   * INVALID_ELEMENT_KINDS for a name that is not an element type, changing nothing. */
  setElementKinds(kinds: readonly ElementKind[]): void {
    const checked = checkElementKinds(kinds ?? "none");
    try {
      this.#engine.setElementKinds([...(checked ?? [])]);
    } catch (e) {
      rethrow(e);
    }
  }

  /** The effect types the effect tools offer (the `effects` option of `createEditor`). */
  effects(): EffectType[] {
    return this.#engine.effects() as EffectType[];
  }

  /** Restricts the effect tools to the effect types the host renders, as the `effects` option of
   * `createEditor` does (`connectOpenCut` sets OpenCut's). Not an undo step. Throws NeuralCutError
   * INVALID_EFFECTS for a type that is not an effect, changing nothing. */
  setEffects(effects: readonly EffectType[]): void {
    if (!Array.isArray(effects) || effects.some((e) => typeof e !== "string")) {
      throw new NeuralCutError("INVALID_EFFECTS", 'effects must be an array of effect type strings, such as ["blur"]');
    }
    try {
      this.#engine.setEffects([...effects]);
    } catch (e) {
      rethrow(e);
    }
  }

  /** The whole project, versioned; `createEditor({ project })` loads it back. */
  project(): ProjectJson {
    const json = this.#engine.projectJson();
    if (json === undefined) throw new NeuralCutError("NO_ACTIVE_PROJECT", "No active project");
    return JSON.parse(json);
  }

  /** Calls `listener` after each committed change, once the call that made it has returned
   * (in a microtask), never from inside the engine. Returns the unsubscribe function. */
  onChange(listener: (event: ChangeEvent) => void): () => void {
    if (typeof listener !== "function") throw new NeuralCutError("INVALID_OPTIONS", "onChange takes a function");
    const entry: Listener = (e) => listener(e);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Frees the engine memory; the editor cannot be used afterwards. */
  dispose(): void {
    this.#inner?.free();
    this.#inner = undefined;
    this.#listeners.clear();
  }

  #changed(before: number, event: Omit<ChangeEvent, "revision">): void {
    const revision = this.#engine.revision();
    if (revision === before || this.#listeners.size === 0) return;
    const full: ChangeEvent = { ...event, revision };
    queueMicrotask(() => {
      for (const listener of [...this.#listeners]) {
        try {
          listener(full);
        } catch (e) {
          // A host's bug must not stop the other listeners; report it like an uncaught error.
          if (typeof reportError === "function") reportError(e);
          else console.error(e);
        }
      }
    });
  }
}

/** Creates an editor, loading the engine wasm on first use. Throws NeuralCutError with code
 * INVALID_JSON, INVALID_PROJECT or UNSUPPORTED_PROJECT for a project it cannot load. */
/** Options as the engine's JSON text; what it cannot read fails as the engine words it. */
function checkedJson(options: object, code: "INVALID_ASSET" | "INVALID_STICKER", method: string): string {
  try {
    return optionsJson(options);
  } catch (e) {
    // The same coded Error the engine threw for these, so `cause` stays as it was too.
    if (e instanceof OptionsRefusal) rethrow(Object.assign(new Error(`${method} options are invalid: ${e.message}`), { code }));
    throw e;
  }
}

export async function createEditor(options: CreateEditorOptions = {}): Promise<NeuralCutEditor> {
  const provider = checkProvider(options.contextProvider);
  await loadEngine();
  const { project } = options;
  let json: string | undefined;
  if (project !== undefined && project !== null) {
    if (typeof project === "string") json = project;
    else if (typeof project === "object") json = JSON.stringify(project);
    else throw new NeuralCutError("INVALID_PROJECT", "project must be a project object or its JSON text");
  }
  const effects = checkEffects(options.effects);
  const kinds = checkElementKinds(options.elementKinds);
  let inner: WasmEditor;
  try {
    inner = openEngine(json);
  } catch (e) {
    rethrow(e);
  }
  try {
    if (effects !== undefined) inner.setEffects([...effects]);
    if (kinds !== undefined) inner.setElementKinds([...kinds]);
  } catch (e) {
    inner.free();
    rethrow(e);
  }
  return construct(inner, provider);
}

// TEST ONLY: a non-enumerable method under a registered symbol, out of the typings, so that no
// tool call and no ordinary code reaches it: `editor[Symbol.for("neuralcut.testOnlyPanic")](tool,
// args, message)` runs `tool` inside the engine and then panics there.
Object.defineProperty(NeuralCutEditor.prototype, Symbol.for("neuralcut.testOnlyPanic"), {
  value(this: NeuralCutEditor, tool: string, args: unknown, message: string) {
    testOnlyPanic(this, tool, args, message);
  },
});

export { ELEMENT_KINDS, type ElementKind } from "./generated/tools.js";

/** The `elementKinds` option: an array of strings (the engine checks that each is an element type). */
function checkElementKinds(kinds: unknown): readonly string[] | undefined {
  if (kinds === undefined || kinds === null) return undefined;
  if (!Array.isArray(kinds) || kinds.some((k) => typeof k !== "string")) {
    throw new NeuralCutError("INVALID_ELEMENT_KINDS", 'elementKinds must be an array of element type strings, such as ["video", "text"]');
  }
  return kinds;
}

/** The `effects` option: an array of strings (the engine checks that each is an effect type). */
function checkEffects(effects: unknown): readonly string[] | undefined {
  if (effects === undefined || effects === null) return undefined;
  if (!Array.isArray(effects) || effects.some((e) => typeof e !== "string")) {
    throw new NeuralCutError("INVALID_EFFECTS", 'effects must be an array of effect type strings, such as ["blur"]');
  }
  return effects;
}

// Loads the engine wasm once, through the package's one wasm loader (js/wasm-loader.ts).
//
// It also makes a panic survivable. wasm32-unknown-unknown cannot unwind on stable Rust, so a
// panic leaves the one module instance every editor shares poisoned. The engine's panic hook
// throws `internal error: …` out of the call (src/wasm/mod.rs); here the module is then
// re-instantiated (`__wbg_reset_state`, emitted by wasm-bindgen's
// --experimental-reset-state-function) and each editor is rebuilt from the project it started
// from by replaying, in order, the calls that committed a change (and the settings calls, such as
// the effects a host renders): same ids, same project, same undo and redo stacks. The editor whose call panicked is rebuilt at once, the others on their
// next call. What does not survive: the call that panicked (nothing of it is kept) and the
// asset-context cache (load_asset_context asks the provider again). See docs/mcp.md.
import init, { __wbg_reset_state, WasmEditor } from "./wasm/neuralcut_engine.js";
import { NeuralCutError } from "./errors.js";
import { wasmLoader } from "./wasm-loader.js";

export { WasmEditor };

/** Resolves once the engine wasm is instantiated; later calls share the first load. */
export const loadEngine: () => Promise<void> = wasmLoader(new URL("./wasm/neuralcut_engine_bg.wasm", import.meta.url), init);

/** Bumped each time the module is re-instantiated after a panic. */
let generation = 0;

/** Engine methods that change nothing: no revision check, never journaled. */
const READS = new Set(["revision", "canUndo", "canRedo", "projectJson", "openCutSceneJson", "effectsAtJson"]);
/** Methods after which the history starts afresh: the journal restarts from the project. */
const RESETS = new Set(["loadOpenCutScene"]);
/** Methods that set engine state without bumping the revision (the effects a host renders):
 * journaled whenever they succeed. */
const SETTINGS = new Set(["setEffects"]);

/** Rust's `char::is_whitespace` (what `str::trim` strips): JS's \s differs (U+FEFF, U+0085). */
const RUST_SPACE = "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]*";
const REFERENCE = new RegExp(`^${RUST_SPACE}(?:clip|text|sticker|effect)-?([1-9][0-9]*)${RUST_SPACE}$`, "i");

/** Whether the engine reads `s` as a readable reference: src/tools/refs.rs `parse` (trimmed,
 * ASCII case forgiven, the dash optional, no leading zero, a number that fits a u32). */
export function isReadableReference(s: string): boolean {
  const m = REFERENCE.exec(s);
  return m !== null && Number(m[1]) <= 0xffff_ffff;
}

/** Whether a tool call that changed nothing may still have numbered elements: list_timeline, or
 * a call with a readable reference anywhere in its arguments (a superset of the id keys the
 * engine resolves: one journal entry too many is harmless, one too few renumbers after a panic). */
function handsOutReferences(method: string, args: unknown[]): boolean {
  if (method !== "callTool") return false;
  if (args[0] === "list_timeline") return true;
  if (typeof args[1] !== "string") return false;
  let found = false;
  try {
    JSON.parse(args[1], (_key, value: unknown) => {
      if (typeof value === "string" && !found) found = isReadableReference(value);
      return value;
    });
  } catch {
    return false; // the engine refused it: nothing numbered
  }
  return found;
}

/** A panic (thrown by the engine's hook) or any other trap of the instance. */
function isPanic(e: unknown): boolean {
  if (typeof WebAssembly !== "undefined" && e instanceof WebAssembly.RuntimeError) return true;
  return e instanceof Error && (e as { code?: unknown }).code === "INTERNAL";
}

function internalError(e: unknown, lost: number): NeuralCutError {
  const text = e instanceof Error ? e.message : String(e);
  let message = text.startsWith("internal error:") ? text : `internal error: ${text}`;
  if (lost > 0) message += ` (the last ${lost} change${lost === 1 ? "" : "s"} could not be restored)`;
  return new NeuralCutError("INTERNAL", message, { cause: e });
}

function resetModule(): void {
  __wbg_reset_state();
  generation++;
}

type Call = [method: string, args: unknown[]];

interface State {
  inner: WasmEditor;
  generation: number;
  /** The project JSON the journal replays from (undefined: an empty project). */
  base: string | undefined;
  journal: Call[];
  /** What revision() last reported, and what to add to the instance's own count. */
  revision: number;
  offset: number;
  freed: boolean;
}

const invoke = (inner: WasmEditor, method: string, args: unknown[]): unknown =>
  (inner as unknown as Record<string, (...a: unknown[]) => unknown>)[method](...args);

/** A call's arguments as kept in the journal (option objects copied: the caller owns them). */
function keep(args: unknown[]): unknown[] {
  if (args.every((a) => typeof a !== "object" || a === null)) return args;
  try {
    return structuredClone(args);
  } catch {
    return args;
  }
}

/** Rebuilds `s.inner` on the current instance; returns how many journaled calls were lost. */
function rebuild(s: State): number {
  let lost = 0;
  for (;;) {
    let inner: WasmEditor | undefined;
    let i = 0;
    try {
      inner = new WasmEditor(s.base);
      for (; i < s.journal.length; i++) {
        const [method, args] = s.journal[i];
        invoke(inner, method, args);
      }
    } catch (e) {
      if (!inner) {
        // The starting project no longer loads: nothing to rebuild from (never expected).
        if (isPanic(e)) resetModule();
        throw internalError(e, s.journal.length);
      }
      lost += s.journal.length - i;
      s.journal.length = i;
      if (isPanic(e)) {
        resetModule();
        continue; // replay the prefix that worked on a fresh instance
      }
    }
    s.inner = inner;
    s.generation = generation;
    // The same revision as before when everything came back; one more when something was lost,
    // so hosts that compare revisions redraw.
    s.offset = s.revision + (lost > 0 ? 1 : 0) - inner.revision();
    s.revision = inner.revision() + s.offset;
    return lost;
  }
}

function call(s: State, method: string, args: unknown[]): unknown {
  if (method === "free") {
    s.freed = true;
    s.journal = [];
    if (s.generation === generation) s.inner.free();
    return undefined;
  }
  if (s.generation !== generation && !s.freed) rebuild(s); // another editor's panic reset the module
  const inner = s.inner;
  const reads = READS.has(method);
  const before = reads ? 0 : inner.revision();
  let out: unknown;
  try {
    out = invoke(inner, method, args);
  } catch (e) {
    if (!isPanic(e)) throw e;
    resetModule();
    throw internalError(e, rebuild(s));
  }
  if (method === "revision") return (out as number) + s.offset;
  if (reads) return out;
  const after = inner.revision();
  if (SETTINGS.has(method) && after === before) {
    s.journal.push([method, keep(args)]);
  } else if (after === before && handsOutReferences(method, args)) {
    // A read that may hand out readable references (clip-1…): replayed too, so a rebuilt engine
    // numbers its elements as the lost one did. A listing right after a listing adds none.
    const last = s.journal[s.journal.length - 1];
    const again = last !== undefined && last[0] === "callTool" && last[1][0] === "list_timeline" && args[0] === "list_timeline";
    if (!again) s.journal.push([method, keep(args)]);
  } else if (after !== before) {
    if (RESETS.has(method)) {
      // The history starts afresh: the project is the new starting point; the settings stay.
      s.base = inner.projectJson();
      const last = new Map(s.journal.filter(([m]) => SETTINGS.has(m)).map((c) => [c[0], c]));
      s.journal = [...last.values()];
    } else {
      s.journal.push([method, keep(args)]);
    }
    s.revision = after + s.offset;
  }
  return out;
}

/**
 * A `WasmEditor` on `projectJson` that survives panics: same methods, but a panic is thrown as
 * a `NeuralCutError` with code INTERNAL after the engine was rebuilt at its last committed state.
 */
export function openEngine(projectJson?: string): WasmEditor {
  let inner: WasmEditor;
  try {
    inner = new WasmEditor(projectJson);
  } catch (e) {
    if (!isPanic(e)) throw e;
    resetModule();
    throw internalError(e, 0);
  }
  const s: State = { inner, generation, base: projectJson, journal: [], revision: inner.revision(), offset: 0, freed: false };
  const methods = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy({} as WasmEditor, {
    get(_target, prop) {
      if (typeof prop !== "string") return undefined;
      let method = methods.get(prop);
      if (method) return method;
      const value = (s.inner as unknown as Record<string, unknown>)[prop];
      if (typeof value !== "function") return value;
      method = (...args: unknown[]) => call(s, prop, args);
      methods.set(prop, method);
      return method;
    },
  });
}

// `neuralcut/bridge`: the page side of the control channel. The page opens a WebSocket to the
// local relay (`npx neuralcut relay`, or the demo server with --control) and answers its
// requests: engine.* on the editor, ui.* through a UI adapter (the host's state: playhead,
// selection, zoom) and generic DOM automation over `data-automation-id` (elements, clicks,
// drags, keys, typing, screenshots). docs/bridge.md has the method table.
import { type ErrorCode, isErrorCode, NeuralCutError } from "./errors.js";
import { isToolError, type NeuralCutEditor } from "./editor.js";
import type { AddAssetOptions } from "./types.js";
import { BRIDGE_ERRORS, PAGE_PATH } from "./bridge/protocol.js";
import { renderPreviewInPage, type PreviewRenderer } from "./render-preview.js";
import { detectScenesTool } from "./detect-scenes.js";
import { detectSilencesTool } from "./detect-silences.js";

export { BRIDGE_ERRORS, ENGINE_METHODS, UI_METHODS, PAGE_PATH } from "./bridge/protocol.js";

/** The attribute that names an interactive element for automation. */
export const AUTOMATION_ATTRIBUTE = "data-automation-id";

/** What the host tells the channel about its UI; only `inspect` is required. */
export interface BridgeUi {
  /** The UI state: playhead (seconds), selection (element ids), zoom, playing, panels, ... */
  inspect(): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** ui.set: change what a user could (playhead, selection, zoom, playing); returns inspect's state. */
  set?(params: Record<string, unknown>): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The element of a named panel for ui.screenshot {panel} (default: `[data-automation-id="panel.<name>"]`). */
  panel?(name: string): Element | null;
  /** A PNG of `target` (the whole page when null), base64; default: neuralcut's DOM rasterizer. */
  screenshot?(target: Element | null): Promise<{ png: string; width: number; height: number }>;
}

export interface BridgeOptions {
  /** The relay's page URL, e.g. `ws://127.0.0.1:9876/page`. */
  url: string;
  /** The token the relay printed. */
  token: string;
  editor: NeuralCutEditor;
  ui?: BridgeUi;
  /** Serves render_preview (engine.render_preview): a neuralcut/render frame renderer of its own
   * (not the one on screen, so the playhead stays), or a function that makes one on first use. */
  renderer?: PreviewRenderer | (() => Promise<PreviewRenderer>);
  /** A host whose own history owns the edits routes them here (OpenCut: its bridge's callTool,
   * its command manager's undo/redo), so each call is one step of the host's undo. */
  host?: BridgeHost;
  /** Where automation ids are looked up (default: the document). */
  root?: ParentNode;
  /** Told when the connection opens, closes or is refused. */
  onStatus?(status: "connecting" | "open" | "closed", detail?: string): void;
  /** Reconnect after a drop, every this many ms (default 2000; 0: never). */
  retryMs?: number;
}

export interface BridgeHost {
  callTool?(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** engine.addAssets (media_import in bridge mode): adds one fetched file to the host's media
   * library and returns its asset id (default: `editor.addAsset`). */
  addAsset?(options: AddAssetOptions & { file: File }): string | Promise<string>;
  // biome-ignore lint/suspicious/noConfusingVoidType: a host's undo may return nothing or whether it undid
  undo?(): boolean | void;
  // biome-ignore lint/suspicious/noConfusingVoidType: as undo
  redo?(): boolean | void;
}

export interface BridgeConnection {
  /** Answers one request as the relay would relay it (also used by tests and in-page callers). */
  handle(method: string, params?: Record<string, unknown>): Promise<BridgeAnswer>;
  status(): "connecting" | "open" | "closed";
  close(): void;
}

export type BridgeAnswer = { ok: true; result: unknown } | { ok: false; error: string; code: string; details?: Record<string, unknown> };

/** A failure with a stable code, turned into `{ok: false, error, code}` by the dispatcher. */
/** A refused call, answered as { ok: false, error, code, details } (never thrown out of `handle`). */
class Refusal extends NeuralCutError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(code, message);
    this.name = "Refusal";
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const bad = (message: string) => new Refusal(BRIDGE_ERRORS.INVALID_PARAMS, message);

function strictParams(method: string, params: Record<string, unknown>, accepted: string[]): void {
  for (const key of Object.keys(params)) {
    if (!accepted.includes(key))
      throw bad(`unknown parameter "${key}" for ${method}; expected: ${accepted.length ? [...accepted].sort().join(", ") : "no parameters"}`);
  }
}

// ---- DOM automation ----

interface Point {
  x: number;
  y: number;
}

function automationId(el: Element): string | null {
  return el.getAttribute(AUTOMATION_ATTRIBUTE);
}

function visible(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return false;
  const style = getComputedStyle(el);
  return style.visibility !== "hidden" && style.display !== "none";
}

function labelOf(el: Element): string {
  const aria = el.getAttribute("aria-label");
  if (aria) return aria;
  const labelledBy = el.getAttribute("aria-labelledby");
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => el.ownerDocument.getElementById(id)?.textContent?.trim() ?? "")
      .join(" ")
      .trim();
    if (text) return text;
  }
  const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
  if (text) return text.slice(0, 120);
  return el.getAttribute("title") ?? (el as HTMLInputElement).value ?? "";
}

function rectOf(el: Element) {
  const r = el.getBoundingClientRect();
  const round = (v: number) => Math.round(v * 100) / 100;
  return { x: round(r.left), y: round(r.top), width: round(r.width), height: round(r.height) };
}

function findById(root: ParentNode, id: string): Element {
  const el = root.querySelector(`[${AUTOMATION_ATTRIBUTE}="${CSS.escape(id)}"]`);
  if (!el) throw new Refusal(BRIDGE_ERRORS.NO_ELEMENT, `no element ${id}`, { id });
  if (!visible(el)) throw new Refusal(BRIDGE_ERRORS.NO_ELEMENT, `element ${id} is not visible`, { id });
  return el;
}

function centre(el: Element): Point {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** A point from `{id}` or `{x, y}` (viewport pixels). */
function pointOf(root: ParentNode, where: unknown, what: string): { point: Point; target: Element } {
  if (typeof where === "string") {
    const el = findById(root, where);
    return { point: centre(el), target: el };
  }
  if (isObject(where) && typeof where.id === "string") {
    const el = findById(root, where.id);
    return { point: centre(el), target: el };
  }
  if (isObject(where) && typeof where.x === "number" && typeof where.y === "number" && Number.isFinite(where.x) && Number.isFinite(where.y)) {
    const target = document.elementFromPoint(where.x, where.y);
    if (!target) throw new Refusal(BRIDGE_ERRORS.NO_ELEMENT, `no element at (${where.x}, ${where.y})`);
    return { point: { x: where.x, y: where.y }, target };
  }
  throw bad(`${what} must be an automation id or {x, y}`);
}

const MODIFIERS: Record<string, "ctrlKey" | "shiftKey" | "altKey" | "metaKey"> = {
  ctrl: "ctrlKey",
  control: "ctrlKey",
  shift: "shiftKey",
  alt: "altKey",
  option: "altKey",
  cmd: "metaKey",
  command: "metaKey",
  meta: "metaKey",
};

function modifierFlags(list: unknown): Record<string, boolean> {
  if (list === undefined) return {};
  if (!Array.isArray(list) || list.some((m) => typeof m !== "string" || !(m.toLowerCase() in MODIFIERS))) {
    throw bad("modifiers must be a list of Ctrl, Shift, Alt, Cmd");
  }
  return Object.fromEntries(list.map((m: string) => [MODIFIERS[m.toLowerCase()], true]));
}

const BUTTONS: Record<string, number> = { left: 0, middle: 1, right: 2 };

function pointer(type: string, target: Element, p: Point, init: Record<string, unknown>): boolean {
  const common = { bubbles: true, cancelable: true, composed: true, clientX: p.x, clientY: p.y, view: window, ...init };
  const event = type.startsWith("pointer")
    ? new PointerEvent(type, { pointerId: 1, pointerType: "mouse", isPrimary: true, ...common })
    : new MouseEvent(type, common);
  return target.dispatchEvent(event);
}

/** The element that gets a move or release: the pressed one while it is on the page (as a
 * pointer capture would), else what is under the point. */
function stillThere(target: Element, p: Point): Element {
  return target.isConnected ? target : (document.elementFromPoint(p.x, p.y) ?? document.body);
}

function click(root: ParentNode, params: Record<string, unknown>) {
  strictParams("ui.click", params, ["id", "x", "y", "button", "count", "modifiers"]);
  const where = typeof params.id === "string" ? params.id : { x: params.x, y: params.y };
  if (params.id !== undefined && typeof params.id !== "string") throw bad("id must be an automation id");
  const { point, target } = pointOf(root, where, "the click target");
  const button = params.button ?? "left";
  if (typeof button !== "string" || !(button in BUTTONS)) throw bad("button must be left, middle or right");
  const count = params.count ?? 1;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > 3) throw bad("count must be 1, 2 or 3");
  const mods = modifierFlags(params.modifiers);
  const b = BUTTONS[button];
  for (let i = 1; i <= count; i++) {
    const init = { button: b, buttons: 1 << (b === 1 ? 2 : b === 2 ? 1 : 0), detail: i, ...mods };
    pointer("pointerdown", target, point, init);
    pointer("mousedown", target, point, init);
    if (i === 1 && target instanceof HTMLElement) target.focus({ preventScroll: true });
    const up = stillThere(target, point);
    pointer("pointerup", up, point, { ...init, buttons: 0 });
    pointer("mouseup", up, point, { ...init, buttons: 0 });
    // A dispatched click runs the element's activation behaviour (buttons, checkboxes) too.
    if (b === 0) pointer("click", up, point, { ...init, buttons: 0 });
    else if (b === 2) pointer("contextmenu", up, point, { ...init, buttons: 0 });
    if (i === 2 && b === 0) pointer("dblclick", up, point, { ...init, buttons: 0 });
  }
  return { clicked: automationId(target) ?? target.tagName.toLowerCase(), x: point.x, y: point.y };
}

function drag(root: ParentNode, params: Record<string, unknown>) {
  strictParams("ui.drag", params, ["from", "to", "dx", "dy", "steps", "modifiers"]);
  const from = pointOf(root, params.from, "from");
  let to: Point;
  if (params.to !== undefined) {
    if (params.dx !== undefined || params.dy !== undefined) throw bad("give either to or dx/dy");
    to = pointOf(root, params.to, "to").point;
  } else {
    const dx = params.dx ?? 0;
    const dy = params.dy ?? 0;
    if (typeof dx !== "number" || typeof dy !== "number" || !Number.isFinite(dx) || !Number.isFinite(dy) || (dx === 0 && dy === 0)) {
      throw bad("give to (an automation id or {x, y}) or dx/dy in pixels");
    }
    to = { x: from.point.x + dx, y: from.point.y + dy };
  }
  const steps = params.steps ?? 8;
  if (typeof steps !== "number" || !Number.isInteger(steps) || steps < 1 || steps > 100) throw bad("steps must be a whole number from 1 to 100");
  const mods = modifierFlags(params.modifiers);
  const down = { button: 0, buttons: 1, ...mods };
  pointer("pointerdown", from.target, from.point, down);
  pointer("mousedown", from.target, from.point, down);
  for (let i = 1; i <= steps; i++) {
    const p = { x: from.point.x + ((to.x - from.point.x) * i) / steps, y: from.point.y + ((to.y - from.point.y) * i) / steps };
    const at = stillThere(from.target, p);
    pointer("pointermove", at, p, down);
    pointer("mousemove", at, p, down);
  }
  const end = stillThere(from.target, to);
  pointer("pointerup", end, to, { ...down, buttons: 0 });
  pointer("mouseup", end, to, { ...down, buttons: 0 });
  return { from: { ...from.point, id: automationId(from.target) }, to };
}

const NAMED_KEYS: Record<string, [key: string, code: string]> = {
  space: [" ", "Space"],
  enter: ["Enter", "Enter"],
  return: ["Enter", "Enter"],
  escape: ["Escape", "Escape"],
  esc: ["Escape", "Escape"],
  tab: ["Tab", "Tab"],
  backspace: ["Backspace", "Backspace"],
  delete: ["Delete", "Delete"],
  del: ["Delete", "Delete"],
  home: ["Home", "Home"],
  end: ["End", "End"],
  pageup: ["PageUp", "PageUp"],
  pagedown: ["PageDown", "PageDown"],
  left: ["ArrowLeft", "ArrowLeft"],
  right: ["ArrowRight", "ArrowRight"],
  up: ["ArrowUp", "ArrowUp"],
  down: ["ArrowDown", "ArrowDown"],
  arrowleft: ["ArrowLeft", "ArrowLeft"],
  arrowright: ["ArrowRight", "ArrowRight"],
  arrowup: ["ArrowUp", "ArrowUp"],
  arrowdown: ["ArrowDown", "ArrowDown"],
};

/** "Ctrl+Shift+Z" as a KeyboardEvent's init; throws on an unknown key name. */
export function parseShortcut(shortcut: string): KeyboardEventInit & { key: string; code: string } {
  const parts = shortcut.split("+").map((p) => p.trim());
  // "Ctrl++" names the plus key.
  if (shortcut.endsWith("++")) parts.splice(-2, 2, "+");
  const name = parts.pop() ?? "";
  const init: Record<string, boolean> = {};
  for (const m of parts) {
    const flag = MODIFIERS[m.toLowerCase()];
    if (!flag) throw bad(`unknown modifier "${m}" in ${JSON.stringify(shortcut)}: use Ctrl, Shift, Alt or Cmd`);
    init[flag] = true;
  }
  let key: string;
  let code: string;
  const named = NAMED_KEYS[name.toLowerCase()];
  if (named) [key, code] = named;
  else if (/^F([1-9]|1[0-2])$/i.test(name)) key = code = name.toUpperCase();
  else if ([...name].length === 1) {
    key = init.shiftKey ? name.toUpperCase() : name.toLowerCase();
    code = /^[a-z]$/i.test(name) ? `Key${name.toUpperCase()}` : /^[0-9]$/.test(name) ? `Digit${name}` : "";
  } else
    throw bad(`unknown key "${name}" in ${JSON.stringify(shortcut)}: a character, Space, Enter, Escape, Tab, Backspace, Delete, arrows, Home, End, F1-F12`);
  return { key, code, bubbles: true, cancelable: true, composed: true, ...init };
}

function key(params: Record<string, unknown>) {
  strictParams("ui.key", params, ["key"]);
  if (typeof params.key !== "string" || params.key === "") throw bad('key must be a key or shortcut such as "Space", "S", "Ctrl+Z", "Shift+Delete"');
  const init = parseShortcut(params.key);
  const target = document.activeElement ?? document.body;
  const down = new KeyboardEvent("keydown", init);
  target.dispatchEvent(down);
  target.dispatchEvent(new KeyboardEvent("keyup", init));
  return { key: params.key, handled: down.defaultPrevented, target: automationId(target) ?? target.tagName.toLowerCase() };
}

function type(root: ParentNode, params: Record<string, unknown>) {
  strictParams("ui.type", params, ["text", "id"]);
  if (typeof params.text !== "string") throw bad("text must be a string");
  if (params.id !== undefined) {
    if (typeof params.id !== "string") throw bad("id must be an automation id");
    (findById(root, params.id) as HTMLElement).focus();
  }
  const el = document.activeElement;
  const field =
    el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !["checkbox", "radio", "range", "file", "button", "submit"].includes(el.type))
      ? el
      : null;
  if (field) {
    field.setRangeText(params.text, field.selectionStart ?? field.value.length, field.selectionEnd ?? field.value.length, "end");
  } else if (el instanceof HTMLElement && el.isContentEditable) {
    el.ownerDocument.execCommand("insertText", false, params.text);
    return { typed: params.text.length, into: automationId(el) };
  } else {
    throw new Refusal(BRIDGE_ERRORS.NO_ELEMENT, "no focused text field: click one first (or pass its id)");
  }
  field.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: params.text }));
  return { typed: params.text.length, into: automationId(field), value: field.value };
}

function elements(root: ParentNode, params: Record<string, unknown>) {
  strictParams("ui.elements", params, ["prefix"]);
  if (params.prefix !== undefined && typeof params.prefix !== "string") throw bad("prefix must be a string");
  const prefix = (params.prefix as string | undefined) ?? "";
  const out = [];
  for (const el of root.querySelectorAll(`[${AUTOMATION_ATTRIBUTE}]`)) {
    const id = automationId(el) ?? "";
    if (!id.startsWith(prefix) || !visible(el)) continue;
    const entry: Record<string, unknown> = { id, label: labelOf(el), role: el.getAttribute("role") ?? el.tagName.toLowerCase(), rect: rectOf(el) };
    if ((el as HTMLButtonElement).disabled) entry.disabled = true;
    if (el.getAttribute("aria-selected") === "true" || el.getAttribute("aria-pressed") === "true" || el.classList.contains("selected")) entry.selected = true;
    out.push(entry);
  }
  return { elements: out };
}

/** A PNG of `target` (the viewport when null), drawn from the DOM by modern-screenshot. */
async function rasterize(target: Element | null): Promise<{ png: string; width: number; height: number }> {
  const name = "modern-screenshot";
  const { domToCanvas } = await import(/* @vite-ignore */ name);
  const node = target ?? document.documentElement;
  const r = target ? target.getBoundingClientRect() : { width: window.innerWidth, height: window.innerHeight };
  const width = Math.round(r.width);
  const height = Math.round(r.height);
  const canvas: HTMLCanvasElement = await domToCanvas(node, { width, height, scale: 1, backgroundColor: getComputedStyle(document.body).backgroundColor });
  // Canvases (a GPU preview) are copied as their pixels are now.
  const blob: Blob = await new Promise((done, fail) =>
    canvas.toBlob((b) => (b ? done(b) : fail(new Error("the screenshot could not be encoded"))), "image/png"),
  );
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { png: btoa(binary), width: canvas.width, height: canvas.height };
}

// ---- the dispatcher ----

/** Answers control-channel requests for `editor` (and `ui`, when given). */
export function createBridgeHandler(options: {
  editor: NeuralCutEditor;
  ui?: BridgeUi;
  root?: ParentNode;
  renderer?: BridgeOptions["renderer"];
  host?: BridgeHost;
}) {
  const { editor, ui, host } = options;
  let renderer: Promise<PreviewRenderer> | undefined;
  const rendererFor = (): Promise<PreviewRenderer> => {
    const given = options.renderer;
    if (!given) throw new Refusal(BRIDGE_ERRORS.UNSUPPORTED, "render_preview: this page has no frame renderer (connectBridge({renderer}))");
    renderer ??= typeof given === "function" ? given() : Promise.resolve(given);
    // A renderer that failed to start is tried again next time.
    renderer.catch(() => (renderer = undefined));
    return renderer;
  };
  const root = options.root ?? document;
  const needUi = (method: string): BridgeUi => {
    if (!ui) throw new Refusal(BRIDGE_ERRORS.UNSUPPORTED, `${method}: this page has no UI adapter (connectBridge({ui}))`);
    return ui;
  };
  const history = () => ({ canUndo: editor.canUndo(), canRedo: editor.canRedo(), revision: editor.revision() });

  /** engine.addAssets {assets: [{url, name, type, ...}]}: media_import's files, granted by the
   * relay under one-time URLs. Every file is fetched before any is added (all or nothing), and
   * kept in the page as a File, so the preview and the renderers read it after the URL is gone. */
  async function addAssets(list: unknown): Promise<{ ids: string[] }> {
    if (!Array.isArray(list) || list.length === 0 || !list.every((a) => isObject(a) && typeof a.url === "string" && typeof a.name === "string")) {
      throw bad("assets must be a non-empty array of {url, name, type, duration?, width?, height?, fps?}");
    }
    const files: (AddAssetOptions & { file: File })[] = [];
    for (const [index, { url, ...meta }] of (list as { url: string; name: string }[]).entries()) {
      let blob: Blob;
      try {
        const res = await fetch(url, { cache: "no-store" });
        if (!res.ok) throw new NeuralCutError("MEDIA_UNREADABLE", `HTTP ${res.status}`);
        blob = await res.blob();
      } catch (e) {
        throw new Refusal("MEDIA_UNREADABLE", `the page could not fetch ${meta.name}: ${e instanceof Error ? e.message : String(e)}`, { index });
      }
      files.push({ ...(meta as AddAssetOptions), file: new File([blob], meta.name, { type: blob.type }) });
    }
    const ids: string[] = [];
    for (const [index, options] of files.entries()) {
      try {
        ids.push(host?.addAsset ? await host.addAsset(options) : editor.addAsset(options));
      } catch (e) {
        const code = (e as { code?: unknown }).code;
        throw new Refusal(isErrorCode(code) ? code : "INVALID_ASSET", e instanceof Error ? e.message : String(e), {
          index,
          ...(ids.length ? { added: ids } : {}),
        });
      }
    }
    return { ids };
  }

  async function run(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case "engine.tools":
        strictParams(method, params, []);
        return { tools: editor.tools(), renderPreview: Boolean(options.renderer) };
      case "engine.render_preview": {
        // The MCP result as is: the PNG as an image block plus the frame's description.
        const out = await renderPreviewInPage(await rendererFor(), params);
        if (out.isError) throw new Refusal("RENDER_FAILED", (out.content[0] as { text: string }).text);
        return out;
      }
      case "engine.call": {
        strictParams(method, params, ["tool", "args"]);
        if (typeof params.tool !== "string") throw bad("tool must be a tool name (engine.tools lists them)");
        const args = (params.args ?? {}) as Record<string, unknown>;
        const out = host?.callTool ? await host.callTool(params.tool, args) : await editor.callToolUntyped(params.tool, args);
        if (isToolError(out)) {
          const { error, code, ...rest } = out as { error: string; code?: string };
          // A tool error's code is always listed; INTERNAL only if a host's callTool gave none.
          throw new Refusal(isErrorCode(code) ? code : "INTERNAL", error, { error, code, ...rest });
        }
        // In bridge mode the listing also says where the user is: playhead and selection.
        if (params.tool === "list_timeline" && ui) {
          const state = await ui.inspect();
          return { ...out, playhead: state.playhead, selection: state.selection };
        }
        return out;
      }
      case "engine.addAssets":
        strictParams(method, params, ["assets"]);
        return addAssets(params.assets);
      case "engine.measure": {
        // detect_silences and detect_scenes run here, where the asset's bytes and WebCodecs are.
        strictParams(method, params, ["tool", "args"]);
        const make = params.tool === "detect_silences" ? detectSilencesTool : params.tool === "detect_scenes" ? detectScenesTool : undefined;
        if (!make) throw bad("tool must be detect_silences or detect_scenes");
        const out = await make(editor).call(params.args ?? {});
        if (isToolError(out)) {
          const { error, code, ...rest } = out as { error: string; code?: string };
          throw new Refusal(isErrorCode(code) ? code : "INTERNAL", error, { error, code, ...rest });
        }
        return out;
      }
      case "engine.undo":
      case "engine.redo":
        strictParams(method, params, []);
        if (method === "engine.undo") {
          const could = editor.canUndo();
          const done = host?.undo ? (host.undo() ?? could) : editor.undo();
          return { done, ...history() };
        }
        {
          const could = editor.canRedo();
          const done = host?.redo ? (host.redo() ?? could) : editor.redo();
          return { done, ...history() };
        }
      case "engine.inspect":
        strictParams(method, params, []);
        return { project: editor.project(), ...history(), ...(ui ? { ui: await ui.inspect() } : {}) };
      case "ui.inspect":
        strictParams(method, params, []);
        return needUi(method).inspect();
      case "ui.set": {
        const adapter = needUi(method);
        if (!adapter.set) throw new Refusal(BRIDGE_ERRORS.UNSUPPORTED, "ui.set: this page's UI adapter sets nothing");
        return adapter.set(params);
      }
      case "ui.elements":
        return elements(root, params);
      case "ui.click":
        return click(root, params);
      case "ui.drag":
        return drag(root, params);
      case "ui.key":
        return key(params);
      case "ui.type":
        return type(root, params);
      case "ui.screenshot": {
        strictParams(method, params, ["panel"]);
        let target: Element | null = null;
        if (params.panel !== undefined) {
          if (typeof params.panel !== "string") throw bad("panel must be a panel name (ui.inspect lists them) or an automation id");
          const name = params.panel;
          target =
            ui?.panel?.(name) ??
            root.querySelector(`[${AUTOMATION_ATTRIBUTE}="panel.${CSS.escape(name.toLowerCase())}"]`) ??
            root.querySelector(`[${AUTOMATION_ATTRIBUTE}="${CSS.escape(name)}"]`);
          if (!target) throw new Refusal(BRIDGE_ERRORS.NO_ELEMENT, `no panel ${name}`);
        }
        return ui?.screenshot ? ui.screenshot(target) : rasterize(target);
      }
      default:
        throw new Refusal(
          BRIDGE_ERRORS.UNKNOWN_METHOD,
          `unknown method ${method}: engine.tools, engine.call, engine.addAssets, engine.measure, engine.undo, engine.redo, engine.inspect, ui.inspect, ui.elements, ui.click, ui.drag, ui.key, ui.type, ui.screenshot, ui.set`,
        );
    }
  }

  return async function handle(method: string, params: Record<string, unknown> = {}): Promise<BridgeAnswer> {
    try {
      if (!isObject(params)) throw bad("params must be a JSON object");
      return { ok: true, result: await run(method, params) };
    } catch (e) {
      if (e instanceof Refusal) return { ok: false, error: e.message, code: e.code, ...(e.details ? { details: e.details } : {}) };
      const code = (e as { code?: unknown }).code;
      return { ok: false, error: e instanceof Error ? e.message : String(e), code: typeof code === "string" ? code : BRIDGE_ERRORS.INTERNAL };
    }
  };
}

/** Connects the page to the relay and answers its requests until closed. */
export function connectBridge(options: BridgeOptions): BridgeConnection {
  const handle = createBridgeHandler(options);
  const { editor } = options;
  const retryMs = options.retryMs ?? 2000;
  let socket: WebSocket | null = null;
  let state: "connecting" | "open" | "closed" = "connecting";
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const url = new URL(options.url);
  if (url.pathname === "/" || url.pathname === "") url.pathname = PAGE_PATH;
  url.searchParams.set("token", options.token);

  function open(): void {
    state = "connecting";
    options.onStatus?.("connecting");
    const ws = new WebSocket(url.href);
    socket = ws;
    ws.onopen = () => {
      state = "open";
      ws.send(JSON.stringify({ event: "hello", page: { title: document.title, url: location.href } }));
      options.onStatus?.("open");
    };
    ws.onmessage = async (event) => {
      let request: { id?: unknown; method?: unknown; params?: unknown };
      try {
        request = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (typeof request.method !== "string") return;
      const answer = await handle(request.method, (request.params ?? {}) as Record<string, unknown>);
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ id: request.id, ...answer }));
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      state = "closed";
      options.onStatus?.("closed", event.reason || undefined);
      // Another page taking over (4000) is final; a dropped relay is retried.
      if (!stopped && retryMs > 0 && event.code !== 4000) retry = setTimeout(open, retryMs);
    };
  }
  // Every change of the project (a tool call, a gesture, undo or redo here) is told to the relay,
  // which passes it to subscribed clients (neuralcut mcp --bridge: resources/updated). Changes
  // in one task are told once.
  let told = false;
  const unwatch = editor.onChange(() => {
    if (told) return;
    told = true;
    setTimeout(() => {
      told = false;
      if (socket?.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ event: "changed", revision: editor.revision(), canUndo: editor.canUndo(), canRedo: editor.canRedo() }));
      }
    });
  });
  open();
  return {
    handle,
    status: () => state,
    close() {
      unwatch();
      stopped = true;
      clearTimeout(retry);
      socket?.close();
      state = "closed";
    },
  };
}

// `neuralcut/opencut`: hands OpenCut's active scene to a NeuralCut editor, runs tools (or an
// agent turn) on it, and writes the result back through OpenCut's snapshot command so OpenCut's
// undo sees one step. See docs/opencut.md.
//
// The engine reads and writes OpenCut's shape itself (src/opencut/); this file only deals with
// what JSON cannot carry: values such as an element's decoded `buffer` (an AudioBuffer) stay on
// this side and are put back on the elements that come out, including pieces cut from them.
import { type ElementKind, engineAccess, type NeuralCutEditor } from "./editor.js";
import { NeuralCutError } from "./errors.js";
import type { AssetSource } from "./types.js";
import type { EffectType } from "./generated/tools.js";

/** The effect types OpenCut classic's registry renders (effects/definitions at cf5e79e). */
export const OPENCUT_EFFECTS: readonly EffectType[] = ["blur"];

/** The element types OpenCut classic at cf5e79e draws as published: its sticker providers are
 * registered with the wrong call and its compositor cannot read an effect element's passes, so
 * stickers and effect elements stop its preview (docs/opencut.md gives the two-line fix). Its
 * graphics (shapes) draw through their own registry, which is registered right. */
export const OPENCUT_ELEMENT_KINDS: readonly ElementKind[] = ["video", "image", "audio", "text", "graphic"];

/** An OpenCut element: the fields NeuralCut reads, and everything else, which it keeps. */
export interface OpenCutElement {
  id: string;
  name: string;
  type: "video" | "image" | "audio" | "text" | "sticker" | "graphic" | "effect";
  /** Ticks (120 000 per second), like every time below. */
  startTime: number;
  duration: number;
  trimStart: number;
  trimEnd: number;
  [field: string]: unknown;
}

export interface OpenCutTrack {
  id: string;
  name: string;
  type: "video" | "text" | "audio" | "graphic" | "effect";
  elements: OpenCutElement[];
  [field: string]: unknown;
}

/** A scene's `tracks`: overlay tracks (first is top), the main video track, audio tracks. */
export interface OpenCutSceneTracks {
  overlay: OpenCutTrack[];
  main: OpenCutTrack;
  audio: OpenCutTrack[];
  [field: string]: unknown;
}

/** An OpenCut media asset; `duration` in seconds. `file` and other host objects stay here. */
export interface OpenCutMediaAsset {
  id: string;
  name: string;
  type: "image" | "video" | "audio";
  duration?: number;
  width?: number;
  height?: number;
  fps?: number | { numerator: number; denominator: number };
  [field: string]: unknown;
}

export interface OpenCutSettings {
  fps?: { numerator: number; denominator: number } | number;
  canvasSize?: { width: number; height: number };
  /** What the canvas shows under every layer (project/types.ts `TBackground`). */
  background?: OpenCutBackground;
  [field: string]: unknown;
}

/** OpenCut's canvas background: a colour ("transparent" draws nothing), or the main track's
 * picture blurred behind everything. */
export type OpenCutBackground = { type: "color"; color: string } | { type: "blur"; blurIntensity: number };

/** What `loadOpenCutScene` takes. Without `settings` the editor keeps its fps and canvas. */
export interface OpenCutScene {
  tracks: OpenCutSceneTracks;
  assets?: readonly OpenCutMediaAsset[];
  settings?: OpenCutSettings;
}

/** Replaces the editor's timeline and media library with an OpenCut scene `{ tracks, assets,
 * settings? }`. Not an undo step: the history starts afresh, unless `keepHistory` says the scene
 * is OpenCut's normalised copy of the timeline the editor holds (pruned empty tracks, rippled
 * elements). Each asset's `file` and `url` (from the scene, or `sources` when they were stripped)
 * become what `load_asset_context`, `transcribe_video` and the renderers read. Throws
 * NeuralCutError INVALID_SCENE, naming the place, and then nothing changed. */
export function loadOpenCutScene(
  editor: NeuralCutEditor,
  scene: OpenCutScene,
  options: { keepHistory?: boolean; sources?: ReadonlyMap<string, AssetSource> } = {},
): void {
  let json: string;
  try {
    // Host objects (a media file) do not cross; `sources` below keeps them.
    json = JSON.stringify(scene, (_, v) => (typeof Blob !== "undefined" && v instanceof Blob ? undefined : v)) ?? "null";
  } catch (e) {
    throw new NeuralCutError("INVALID_SCENE", `OpenCut scene is not JSON: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const sources = new Map<string, AssetSource>(options.sources ?? []);
  for (const a of Array.isArray(scene?.assets) ? scene.assets : []) {
    if (!a || typeof a !== "object" || typeof a.id !== "string" || sources.has(a.id)) continue;
    const file = typeof Blob !== "undefined" && a.file instanceof Blob ? a.file : undefined;
    const url = typeof a.url === "string" ? a.url : undefined;
    if (file !== undefined || url !== undefined) sources.set(a.id, { file, url });
  }
  engineAccess(editor).replace("scene", options.keepHistory ? "adoptOpenCutScene" : "loadOpenCutScene", [json], sources);
}

/** The editor's timeline as OpenCut's `{ tracks: { overlay, main, audio } }`, times in ticks,
 * with `settings.background` when the project has one. */
export function toOpenCutScene(editor: NeuralCutEditor): { tracks: OpenCutSceneTracks; settings?: { background: OpenCutBackground } } {
  return JSON.parse(engineAccess(editor).read("openCutSceneJson") as string);
}

/** What the bridge needs from OpenCut's editor core (see docs/opencut.md for the calls). */
export interface OpenCutHost {
  /** The active scene's tracks: `editor.scenes.getActiveScene().tracks`. */
  getTracks(): OpenCutSceneTracks;
  /** The project's media assets: `editor.media.getAssets()`. */
  getAssets(): readonly OpenCutMediaAsset[];
  /** The project settings (fps, canvasSize): `editor.project.getActive().settings`. */
  getSettings?(): OpenCutSettings | undefined;
  /** Applies `after` as one undoable step: `editor.command.execute({ command: new
   * TracksSnapshotCommand({ before, after }) })`. OpenCut re-renders from there. `settings` comes
   * only when a tool changed them (update_project's `background`): then the step is
   * `new BatchCommand([new TracksSnapshotCommand({ before, after }), new
   * UpdateProjectSettingsCommand(settings)])`, one Ctrl+Z for both. */
  commit(before: OpenCutSceneTracks, after: OpenCutSceneTracks, settings?: Partial<OpenCutSettings>): void;
  /** The effect types the host renders (default `OPENCUT_EFFECTS`, OpenCut's registry): the
   * effect tools offer only these, since OpenCut's preview stops on an effect it does not know. */
  effects?: readonly EffectType[];
  /** The element types the host's OpenCut draws (default `OPENCUT_ELEMENT_KINDS`: OpenCut classic
   * at cf5e79e as published draws no sticker and no effect element, see docs/opencut.md). A host
   * that applied the two-line fix there passes `ELEMENT_KINDS`. */
  elementKinds?: readonly ElementKind[];
  /** A sticker's natural size in pixels, which OpenCut stores on the stickers its UI inserts
   * (`intrinsicWidth`/`intrinsicHeight`, measured from the image; 200 when it fails to load).
   * Given, stickers the tools create carry it too; OpenCut's resolver is asynchronous, so the
   * host answers from what it has already measured, or undefined. */
  stickerSize?(stickerId: string): { width: number; height: number } | undefined;
}

/** True for a value JSON carries unchanged: null, booleans, finite numbers, strings, and arrays
 * and plain objects of those. */
function isJson(v: unknown, depth = 0): boolean {
  if (v === null || typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "number") return Number.isFinite(v);
  if (depth > 64 || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.every((x) => isJson(x, depth + 1));
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(v as Record<string, unknown>).every((x) => x === undefined || isJson(x, depth + 1));
}

type Kept = Record<string, unknown>;

/** The scene as plain JSON, and the element fields that are not JSON (by element id, and by the
 * media they play, for pieces and copies that get new ids). */
export interface PreparedScene {
  scene: OpenCutScene;
  byElement: Map<string, Kept>;
  bySource: Map<string, Kept>;
  /** Each media asset's `file` and `url`, by asset id: what `load_asset_context` and
   * `transcribe_video` upload. */
  sources: Map<string, AssetSource>;
}

function sourceKey(e: Record<string, unknown>): string | undefined {
  const key = typeof e.mediaId === "string" ? e.mediaId : typeof e.sourceUrl === "string" ? e.sourceUrl : undefined;
  return key === undefined ? undefined : `${e.type}:${key}`;
}

function allTracks(tracks: OpenCutSceneTracks): OpenCutTrack[] {
  return [...(tracks.overlay ?? []), ...(tracks.main ? [tracks.main] : []), ...(tracks.audio ?? [])];
}

/** Splits a scene into what crosses to the engine and what stays on this side. */
export function prepareOpenCutScene(scene: OpenCutScene): PreparedScene {
  const byElement = new Map<string, Kept>();
  const bySource = new Map<string, Kept>();
  const element = (e: OpenCutElement): OpenCutElement => {
    if (typeof e !== "object" || e === null) return e;
    let plain: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(e)) {
      if (v === undefined || isJson(v)) continue;
      plain ??= { ...e };
      delete plain[k];
      const kept = byElement.get(e.id) ?? {};
      kept[k] = v;
      byElement.set(e.id, kept);
      const source = sourceKey(e);
      if (source !== undefined) bySource.set(source, { ...bySource.get(source), [k]: v });
    }
    return (plain ?? e) as OpenCutElement;
  };
  const track = (t: OpenCutTrack): OpenCutTrack => (t && Array.isArray(t.elements) ? { ...t, elements: t.elements.map(element) } : t);
  const tracks = scene.tracks;
  const out: OpenCutScene = {
    tracks:
      tracks && typeof tracks === "object"
        ? { ...tracks, overlay: tracks.overlay?.map(track), main: tracks.main && track(tracks.main), audio: tracks.audio?.map(track) }
        : tracks,
  };
  // Media assets: the engine needs ids, types, durations; the file itself stays with the host,
  // and is what the context provider uploads.
  const sources = new Map<string, AssetSource>();
  for (const a of Array.isArray(scene.assets) ? scene.assets : []) {
    if (!a || typeof a !== "object" || typeof a.id !== "string") continue;
    const file = typeof Blob !== "undefined" && a.file instanceof Blob ? a.file : undefined;
    const url = typeof a.url === "string" ? a.url : undefined;
    if (file !== undefined || url !== undefined) sources.set(a.id, { file, url });
  }
  if (scene.assets !== undefined) {
    out.assets = Array.isArray(scene.assets)
      ? (scene.assets.map((a) =>
          a && typeof a === "object" ? Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined && isJson(v))) : a,
        ) as OpenCutMediaAsset[])
      : scene.assets;
  }
  if (scene.settings !== undefined) out.settings = scene.settings;
  return { scene: out, byElement, bySource, sources };
}

/** Puts the kept fields back on the engine's elements: by id, else by the media they play. */
export function restoreOpenCutTracks(tracks: OpenCutSceneTracks, prepared: Pick<PreparedScene, "byElement" | "bySource">): OpenCutSceneTracks {
  if (prepared.byElement.size === 0) return tracks;
  for (const t of allTracks(tracks)) {
    t.elements = t.elements.map((e) => {
      const source = sourceKey(e);
      const kept = prepared.byElement.get(e.id) ?? (source === undefined ? undefined : prepared.bySource.get(source));
      return kept ? { ...e, ...kept } : e;
    });
  }
  return tracks;
}

/** Deep equality of scene values, key order aside; host objects (buffers, files) by identity. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  }
  const plain = (v: object) => [Object.prototype, null].includes(Object.getPrototypeOf(v));
  if (!plain(a) || !plain(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Kept)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Kept)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => same((a as Kept)[k], (b as Kept)[k]));
}

/** OpenCut's reactor after every command (core/index.ts): overlay and audio tracks with no
 * elements go; main stays. */
function pruned(tracks: OpenCutSceneTracks): OpenCutSceneTracks {
  return {
    ...tracks,
    overlay: tracks.overlay.filter((t) => t.elements.length > 0),
    audio: tracks.audio.filter((t) => t.elements.length > 0),
  };
}

type Span = { start: number; end: number };

/** Sorted, merged, non-empty spans. */
function merged(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans.filter((s) => s.end > s.start).sort((x, y) => x.start - y.start)) {
    const last = out.at(-1);
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** OpenCut's ripple (ripple/diff.ts, apply.ts, shift.ts), when its ripple toggle is on: time a
 * command freed on a track (elements removed, or shortened at the end) shifts that track's later
 * elements left, except where elements new to the track now sit. */
function rippled(before: OpenCutSceneTracks, after: OpenCutSceneTracks): OpenCutSceneTracks {
  const span = (e: OpenCutElement): Span => ({ start: e.startTime, end: e.startTime + e.duration });
  const afterById = new Map(allTracks(after).map((t) => [t.id, t]));
  const everywhere = new Set(allTracks(after).flatMap((t) => t.elements.map((e) => e.id)));
  const shifts = new Map<string, Span[]>();
  for (const track of allTracks(before)) {
    const now = new Map((afterById.get(track.id)?.elements ?? []).map((e) => [e.id, e]));
    const was = new Map(track.elements.map((e) => [e.id, e]));
    const vacated: Span[] = [];
    for (const e of track.elements) {
      const a = now.get(e.id);
      if (!a) {
        if (!everywhere.has(e.id)) vacated.push(span(e));
      } else if (span(e).end > span(a).end) {
        vacated.push({ start: span(a).end, end: span(e).end });
      }
    }
    const joined = merged([...now.values()].filter((e) => !was.has(e.id)).map(span));
    let freed = merged(vacated);
    for (const j of joined) {
      freed = freed.flatMap((f) =>
        j.end <= f.start || j.start >= f.end
          ? [f]
          : [
              { start: f.start, end: j.start },
              { start: j.end, end: f.end },
            ].filter((x) => x.end > x.start),
      );
    }
    if (freed.length > 0) shifts.set(track.id, freed);
  }
  const shift = <T extends OpenCutTrack>(t: T): T => {
    const freed = shifts.get(t.id);
    if (!freed) return t;
    let elements = t.elements;
    for (const f of [...freed].sort((x, y) => y.end - x.end)) {
      const by = f.end - f.start;
      elements = elements.map((e) => (e.startTime >= f.end ? { ...e, startTime: e.startTime - by } : e));
    }
    return { ...t, elements };
  };
  return { ...after, overlay: after.overlay.map(shift), main: shift(after.main), audio: after.audio.map(shift) };
}

/** Whether `now` is what OpenCut's own normalisation (pruning, and ripple when on) makes of the
 * snapshot `after` that replaced `before`. */
function isNormalisation(before: OpenCutSceneTracks, after: OpenCutSceneTracks, now: OpenCutSceneTracks): boolean {
  return same(now, pruned(after)) || same(now, pruned(rippled(before, after)));
}

/** A background's value, whatever its keys' order. */
function backgroundKey(b: OpenCutBackground | undefined): string {
  return JSON.stringify(b ? [b.type, "color" in b ? b.color : b.blurIntensity] : null);
}

/** Runs NeuralCut on OpenCut's active scene. Create with `connectOpenCut`. */
export class OpenCutBridge {
  readonly editor: NeuralCutEditor;
  readonly host: OpenCutHost;
  #tracks: OpenCutSceneTracks | undefined;
  #assets = "";
  #settings = "";
  /** The canvas background OpenCut holds, as JSON: what it gave at the last sync or was given. */
  #background = backgroundKey(undefined);
  #revision = -1;
  #kept: Pick<PreparedScene, "byElement" | "bySource"> = { byElement: new Map(), bySource: new Map() };
  /** The last snapshot written, and what it replaced, to recognise OpenCut's normalisation of it. */
  #written: { before: OpenCutSceneTracks; after: OpenCutSceneTracks } | undefined;

  constructor(editor: NeuralCutEditor, host: OpenCutHost) {
    if (!editor || typeof editor.revision !== "function") throw new NeuralCutError("INVALID_OPTIONS", "connectOpenCut needs an editor from createEditor()");
    if (!host || typeof host.getTracks !== "function" || typeof host.getAssets !== "function" || typeof host.commit !== "function") {
      throw new NeuralCutError("INVALID_OPTIONS", "connectOpenCut needs a host with getTracks(), getAssets() and commit(before, after)");
    }
    this.editor = editor;
    this.host = host;
    editor.setEffects(host.effects ?? OPENCUT_EFFECTS);
    editor.setElementKinds(host.elementKinds ?? OPENCUT_ELEMENT_KINDS);
  }

  /** Hands OpenCut's current scene to the engine, unless it is the one the engine already holds
   * (same tracks object, same media, same settings): then the engine's undo history stays too.
   * When OpenCut only normalised what the bridge last wrote (pruned emptied tracks, rippled), the
   * engine takes OpenCut's copy and keeps its history; any other change in OpenCut (a user's edit,
   * OpenCut's own undo) is loaded afresh. Returns whether it loaded. Throws NeuralCutError
   * INVALID_SCENE for a scene it refuses. */
  sync(): boolean {
    const tracks = this.host.getTracks();
    const assets = this.host.getAssets() ?? [];
    const settings = this.host.getSettings?.();
    const assetKey = JSON.stringify(assets.map((a) => [a.id, a.type, a.duration ?? null, a.fps ?? null]));
    const settingsKey = JSON.stringify(settings ?? null);
    const sameHost = assetKey === this.#assets && settingsKey === this.#settings;
    if (tracks === this.#tracks && sameHost) {
      // OpenCut has not changed since the engine last saw it; whatever the engine did since
      // (a tool called on the editor directly, an undo) goes back first.
      this.flush();
      return false;
    }
    const written = this.#written;
    const normalised = sameHost && written !== undefined && this.editor.revision() === this.#revision && isNormalisation(written.before, written.after, tracks);
    const prepared = prepareOpenCutScene({ tracks, assets, settings });
    loadOpenCutScene(this.editor, prepared.scene, { keepHistory: normalised, sources: prepared.sources });
    this.#kept = prepared;
    this.#tracks = tracks;
    this.#assets = assetKey;
    this.#settings = settingsKey;
    this.#background = backgroundKey(settings?.background);
    this.#written = undefined;
    this.#revision = this.editor.revision();
    return !normalised;
  }

  /** Writes the engine's timeline back as one OpenCut step if it changed since the last sync or
   * write. Returns whether it wrote. */
  flush(): boolean {
    if (this.#tracks === undefined || this.editor.revision() === this.#revision) return false;
    const before = this.#tracks;
    const scene = toOpenCutScene(this.editor);
    const after = this.#sized(before, restoreOpenCutTracks(scene.tracks, this.#kept));
    const background = scene.settings?.background;
    if (background !== undefined && backgroundKey(background) !== this.#background) {
      this.host.commit(before, after, { background });
      // OpenCut now holds the engine's background: not a change of its own at the next sync.
      this.#background = backgroundKey(background);
      this.#settings = JSON.stringify(this.host.getSettings?.() ?? null);
    } else {
      this.host.commit(before, after);
    }
    this.#tracks = after;
    this.#written = { before, after };
    this.#revision = this.editor.revision();
    // OpenCut's reactors run inside its command: take what they made of the snapshot now (a
    // scene that fails to load here fails the next sync the same way, where the caller sees it).
    if (this.host.getTracks() !== after) {
      try {
        this.sync();
      } catch {
        this.#tracks = undefined;
      }
    }
    return true;
  }

  /** New stickers get the natural size OpenCut's own insertion stores, when the host knows it. */
  #sized(before: OpenCutSceneTracks, after: OpenCutSceneTracks): OpenCutSceneTracks {
    const size = this.host.stickerSize?.bind(this.host);
    if (!size) return after;
    const known = new Set(allTracks(before).flatMap((t) => t.elements.map((e) => e.id)));
    for (const t of allTracks(after)) {
      t.elements = t.elements.map((e) => {
        if (e.type !== "sticker" || known.has(e.id) || e.intrinsicWidth !== undefined || typeof e.stickerId !== "string") return e;
        const s = size(e.stickerId);
        return s ? { ...e, intrinsicWidth: s.width, intrinsicHeight: s.height } : e;
      });
    }
    return after;
  }

  /** Runs `work` on the current scene, then writes everything it changed back as ONE OpenCut
   * undo step (an agent turn: `bridge.run(() => agent.send(text))`). */
  async run<T>(work: (editor: NeuralCutEditor) => T | Promise<T>): Promise<T> {
    this.sync();
    try {
      return await work(this.editor);
    } finally {
      this.flush();
    }
  }

  /** One tool call on the current scene, one OpenCut undo step if it changed anything.
   * Resolves to the tool's result or its `{ error, ... }` value, like `editor.callTool`. */
  callTool(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.run((editor) => editor.callToolUntyped(name, args));
  }
}

/** Connects a NeuralCut editor to OpenCut's editor core. */
export function connectOpenCut(editor: NeuralCutEditor, host: OpenCutHost): OpenCutBridge {
  return new OpenCutBridge(editor, host);
}

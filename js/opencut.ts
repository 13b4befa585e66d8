// `neuralcut/opencut`: hands OpenCut's active scene to a NeuralCut editor, runs tools (or an
// agent turn) on it, and writes the result back through OpenCut's snapshot command so OpenCut's
// undo sees one step. See docs/opencut.md.
//
// The engine reads and writes OpenCut's shape itself (src/opencut/); this file only deals with
// what JSON cannot carry: values such as an element's decoded `buffer` (an AudioBuffer) stay on
// this side and are put back on the elements that come out, including pieces cut from them.
import type { NeuralCutEditor } from "./editor.js";

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
  [field: string]: unknown;
}

/** What `editor.loadOpenCutScene` takes. Without `settings` the editor keeps its fps and canvas. */
export interface OpenCutScene {
  tracks: OpenCutSceneTracks;
  assets?: readonly OpenCutMediaAsset[];
  settings?: OpenCutSettings;
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
   * TracksSnapshotCommand({ before, after }) })`. OpenCut re-renders from there. */
  commit(before: OpenCutSceneTracks, after: OpenCutSceneTracks): void;
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
  const track = (t: OpenCutTrack): OpenCutTrack =>
    t && Array.isArray(t.elements) ? { ...t, elements: t.elements.map(element) } : t;
  const tracks = scene.tracks;
  const out: OpenCutScene = {
    tracks:
      tracks && typeof tracks === "object"
        ? { ...tracks, overlay: tracks.overlay?.map(track), main: tracks.main && track(tracks.main), audio: tracks.audio?.map(track) }
        : tracks,
  };
  // Media assets: the engine needs ids, types, durations; the file itself stays with the host.
  if (scene.assets !== undefined) {
    out.assets = Array.isArray(scene.assets)
      ? scene.assets.map((a) => (a && typeof a === "object" ? Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined && isJson(v))) : a)) as OpenCutMediaAsset[]
      : scene.assets;
  }
  if (scene.settings !== undefined) out.settings = scene.settings;
  return { scene: out, byElement, bySource };
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

/** Runs NeuralCut on OpenCut's active scene. Create with `connectOpenCut`. */
export class OpenCutBridge {
  readonly editor: NeuralCutEditor;
  readonly host: OpenCutHost;
  #tracks: OpenCutSceneTracks | undefined;
  #assets = "";
  #settings = "";
  #revision = -1;
  #kept: Pick<PreparedScene, "byElement" | "bySource"> = { byElement: new Map(), bySource: new Map() };

  constructor(editor: NeuralCutEditor, host: OpenCutHost) {
    if (!editor || typeof editor.loadOpenCutScene !== "function") throw new TypeError("connectOpenCut needs an editor from createEditor()");
    if (!host || typeof host.getTracks !== "function" || typeof host.getAssets !== "function" || typeof host.commit !== "function") {
      throw new TypeError("connectOpenCut needs a host with getTracks(), getAssets() and commit(before, after)");
    }
    this.editor = editor;
    this.host = host;
  }

  /** Hands OpenCut's current scene to the engine, unless it is the one the engine already holds
   * (same tracks object, same media, same settings): then the engine's undo history stays too.
   * Returns whether it loaded. Throws NeuralCutError INVALID_SCENE for a scene it refuses. */
  sync(): boolean {
    const tracks = this.host.getTracks();
    const assets = this.host.getAssets() ?? [];
    const settings = this.host.getSettings?.();
    const assetKey = JSON.stringify(assets.map((a) => [a.id, a.type, a.duration ?? null, a.fps ?? null]));
    const settingsKey = JSON.stringify(settings ?? null);
    if (tracks === this.#tracks && assetKey === this.#assets && settingsKey === this.#settings) {
      // OpenCut has not changed since the engine last saw it; whatever the engine did since
      // (a tool called on the editor directly, an undo) goes back first.
      this.flush();
      return false;
    }
    const prepared = prepareOpenCutScene({ tracks, assets, settings });
    this.editor.loadOpenCutScene(prepared.scene);
    this.#kept = prepared;
    this.#tracks = tracks;
    this.#assets = assetKey;
    this.#settings = settingsKey;
    this.#revision = this.editor.revision();
    return true;
  }

  /** Writes the engine's timeline back as one OpenCut step if it changed since the last sync or
   * write. Returns whether it wrote. */
  flush(): boolean {
    if (this.#tracks === undefined || this.editor.revision() === this.#revision) return false;
    const before = this.#tracks;
    const after = restoreOpenCutTracks(this.editor.toOpenCutScene().tracks, this.#kept);
    this.host.commit(before, after);
    this.#tracks = after;
    this.#revision = this.editor.revision();
    return true;
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

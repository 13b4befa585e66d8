// Public types of the package entry that are not generated from the tool registry.

// The project and asset JSON, frame rates and a failed call's result are generated from their Rust
// types (src/model, src/time.rs, src/tools/error.rs) into generated/tools.ts.
export type { AssetJson, AssetType, ContextRecord, FrameRate, ProjectJson, ProviderReport, ToolErrorResult, ToolInfo } from "./generated/tools.js";
import type { AssetJson, AssetOptions, AssetType, ContextRecord, EffectType, ProjectJson, ProviderReport } from "./generated/tools.js";
import type { ElementKind } from "./editor.js";

/** What `editor.addAsset` takes: the engine's `AssetOptions` (generated from src/editor.rs) plus
 * the host-side handles of the bytes, which stay in JS (see `editor.assetSource`). */
export interface AddAssetOptions extends AssetOptions {
  /** The media bytes, handed to the context provider. */
  file?: Blob;
  /** Where the media can be fetched, handed to the context provider. */
  url?: string;
}

export interface AddStickerOptions {
  /** Catalog id such as `flags:us`. */
  id: string;
  name: string;
  url?: string;
}

/** The host-side handle of an asset's bytes. */
export interface AssetSource {
  file?: Blob;
  url?: string;
}

/** What a context provider is asked to do: make `asset` available to the model, polling
 * `previous` (still processing) rather than uploading again. */
export interface ContextProviderRequest {
  asset: AssetJson;
  previous: ContextRecord | null;
  /** The file or URL given to `addAsset`. */
  source: AssetSource;
}

/** Serves `load_asset_context` (for example by uploading to Gemini through the proxy). */
export interface ContextProvider {
  /** Asset types it accepts (default: all three). */
  supportedTypes?: AssetType[];
  /** Uploads or polls. A thrown error becomes "Failed to load asset context" with its message. */
  load(request: ContextProviderRequest): Promise<ProviderReport>;
}

export interface CreateEditorOptions {
  /** A project from `editor.project()` (object or JSON string); an empty project by default. */
  project?: ProjectJson | string;
  contextProvider?: ContextProvider;
  /**
   * The effect types the host can render (default: all of `EFFECT_TYPES`). `list_effects`,
   * `get_effect`, `apply_effect` and `update_effect` offer only these and answer
   * "Effect not found: <type>" for the rest. An editor setting: not saved with the project.
   */
  effects?: readonly EffectType[];
  /**
   * The element types the host draws (default: all of `ELEMENT_KINDS`). `add_text`, `add_sticker`,
   * `add_media_to_timeline`, `apply_effect` and `duplicate_elements` refuse to add another type
   * (`ELEMENT_KIND_NOT_DRAWN`) and `list_timeline` names the others in `notDrawn`, so the agent
   * does not add what the host's preview cannot show. An editor setting: not saved.
   */
  elementKinds?: readonly ElementKind[];
}

/** Delivered to `onChange` listeners after a call that committed a change has returned. */
export interface ChangeEvent {
  /** The editor's revision after the change. */
  revision: number;
  source: "tool" | "undo" | "redo" | "asset" | "sticker" | "scene";
  /** The tool that made the change, when `source` is "tool". */
  tool?: string;
}

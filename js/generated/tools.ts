// Generated from the tool registry's JSON Schemas by src/tools/typescript.rs.
// Do not edit: run `npm run typings` after changing a schema.

/** Arguments of `list_project_assets`: List project assets */
export interface ListProjectAssetsArgs {
  /** Which assets by timeline usage (default all) */
  filter?: "all" | "used" | "unused";
  /** Which asset type (default all) */
  type?: "all" | "video" | "audio" | "image";
}

/** Result of `list_project_assets`. */
export interface ListProjectAssetsResult {
  assets: {
    id: string;
    name: string;
    type: "video" | "audio" | "image";
    duration?: number;
    usedInTimeline: boolean;
  }[];
}

/** Arguments of `list_timeline`: List timeline */
export type ListTimelineArgs = Record<string, never>;

/** Result of `list_timeline`. */
export interface ListTimelineResult {
  tracks: {
    trackId: string;
    type: "main" | "overlay" | "audio" | "text" | "effect";
    name?: string;
    elements: {
      elementId: string;
      type: string;
      assetId?: string;
      name?: string;
      start: number;
      end: number;
      duration?: number;
      trimStart?: number;
      volume?: number;
      text?: string;
      position?: string;
      stickerId?: string;
      effectType?: string;
      params?: { [key: string]: unknown };
    }[];
  }[];
  /** End of the last element, seconds */
  duration?: number;
}

/** Arguments of `load_asset_context`: Load asset into context */
export interface LoadAssetContextArgs {
  /** Asset id from list_project_assets */
  assetId: string;
}

/** Result of `load_asset_context`. */
export interface LoadAssetContextResult {
  assetId: string;
  status: "loaded" | "processing";
  cached: boolean;
  provider: "gemini";
  fileUri?: string;
  summary?: string;
}

/** Arguments of `split`: Split at times */
export interface SplitArgs {
  /** Timeline seconds to cut at */
  times: number[];
}

/** Result of `split`. */
export interface SplitResult {
  success: boolean;
  affectedElements: string[];
  newElements?: {
    elementId: string;
    splitFrom: string;
    trackId: string;
    start: number;
    end: number;
  }[];
}

/** Arguments of `delete_timeline_elements`: Delete timeline elements */
export interface DeleteTimelineElementsArgs {
  /** Element ids from list_timeline */
  elementIds: string[];
}

/** Result of `delete_timeline_elements`. */
export interface DeleteTimelineElementsResult {
  success: boolean;
  deletedElements: string[];
}

/** Arguments of `move_timeline_elements`: Move timeline elements */
export interface MoveTimelineElementsArgs {
  /** Element ids from list_timeline */
  elementIds: string[];
  /** New start of the earliest element, in timeline seconds */
  start: number;
  /** Track to move them all to (default: each stays on its track) */
  targetTrackId?: string;
}

/** Result of `move_timeline_elements`. */
export interface MoveTimelineElementsResult {
  success: boolean;
  movedElements: {
    elementId: string;
    trackId: string;
    start: number;
    end: number;
  }[];
}

/** Arguments of `add_text`: Add text */
export interface AddTextArgs {
  /** The text to show */
  text: string;
  /** When it appears, in timeline seconds */
  start: number;
  /** When it disappears, in timeline seconds */
  end: number;
  /** Where in the frame */
  position: "top" | "center" | "bottom";
  /** Style preset (default plain) */
  style?: "plain" | "subtitle" | "hook" | "label";
}

/** Result of `add_text`. */
export interface AddTextResult {
  elementId: string;
  trackId: string;
}

/** Arguments of `update_text`: Update text */
export interface UpdateTextArgs {
  /** Track id from list_timeline */
  trackId: string;
  /** Text element id from list_timeline */
  elementId: string;
  /** New text */
  text?: string;
  /** New start, in timeline seconds */
  start?: number;
  /** New end, in timeline seconds */
  end?: number;
  /** New position */
  position?: "top" | "center" | "bottom";
}

/** Result of `update_text`. */
export interface UpdateTextResult {
  success: boolean;
  elementId: string;
}

/** Arguments of `add_media_to_timeline`: Add media to timeline */
export interface AddMediaToTimelineArgs {
  /** Asset id from list_project_assets */
  assetId: string;
  /** Where it starts, in timeline seconds */
  startTime: number;
  /** main or overlay for video and image, audio for audio */
  trackType: "main" | "overlay" | "audio";
  /** Length in seconds (default: the full source, or 5 s for images) */
  duration?: number;
}

/** Result of `add_media_to_timeline`. */
export interface AddMediaToTimelineResult {
  elementId: string;
  trackId: string;
}

/** Arguments of `update_timeline_element_timing`: Update element timing */
export interface UpdateTimelineElementTimingArgs {
  /** Element id from list_timeline */
  elementId: string;
  /** New start (moves the element), in timeline seconds */
  start?: number;
  /** New end (resizes it), in timeline seconds */
  end?: number;
  /** New length in seconds (resizes it) */
  duration?: number;
}

/** Result of `update_timeline_element_timing`. */
export interface UpdateTimelineElementTimingResult {
  success: boolean;
  elementId: string;
  trackId: string;
  start: number;
  end: number;
  duration: number;
}

/** Arguments of `delete_element`: Delete element (deprecated) */
export interface DeleteElementArgs {
  /** Track id from list_timeline */
  trackId: string;
  /** Element id from list_timeline */
  elementId: string;
}

/** Result of `delete_element`. */
export interface DeleteElementResult {
  success: boolean;
}

/** Arguments of `set_volume`: Set volume */
export interface SetVolumeArgs {
  /** Track id from list_timeline */
  trackId: string;
  /** Video or audio element id */
  elementId: string;
  /** 0 is silent, 1 is full volume */
  volume: number;
}

/** Result of `set_volume`. */
export interface SetVolumeResult {
  success: boolean;
  volume: number;
}

/** Arguments of `add_sticker`: Add sticker */
export interface AddStickerArgs {
  /** Sticker id from the project's catalog, such as flags:us */
  stickerId: string;
  /** When it appears, in timeline seconds */
  start: number;
  /** When it disappears, in timeline seconds */
  end: number;
  /** Where in the frame */
  position: "top-left" | "top-right" | "center" | "bottom-left" | "bottom-right";
}

/** Result of `add_sticker`. */
export interface AddStickerResult {
  elementId: string;
  trackId: string;
}

/** Arguments of `list_effects`: List effects */
export interface ListEffectsArgs {
  /** Filter by name or keyword */
  query?: string;
}

/** Result of `list_effects`. */
export interface ListEffectsResult {
  effects: {
    id: string;
    name: string;
    description: string;
  }[];
}

/** Arguments of `get_effect`: Get effect */
export interface GetEffectArgs {
  /** Effect id from list_effects */
  effectType: string;
}

/** Result of `get_effect`. */
export interface GetEffectResult {
  id: string;
  name: string;
  description: string;
  params: {
    key: string;
    label: string;
    type: "number" | "boolean" | "color" | "select";
    default: number | string | boolean;
    min?: number;
    max?: number;
    step?: number;
    options?: {
      value?: string;
      label?: string;
    }[];
    description: string;
  }[];
}

/** Arguments of `apply_effect`: Apply effect */
export interface ApplyEffectArgs {
  /** Effect id from list_effects */
  effectType: string;
  /** Effect start, in timeline seconds */
  start: number;
  /** Effect end, in timeline seconds */
  end: number;
  /** Effect parameters by key (see get_effect) */
  params?: { [key: string]: number | string | boolean };
}

/** Result of `apply_effect`. */
export interface ApplyEffectResult {
  elementId: string;
  trackId: string;
  appliedParams: { [key: string]: unknown };
}

/** Arguments of `update_effect`: Update effect */
export interface UpdateEffectArgs {
  /** Effect element id from list_timeline */
  elementId: string;
  /** Effect parameters by key (see get_effect) */
  params: { [key: string]: number | string | boolean };
}

/** Result of `update_effect`. */
export interface UpdateEffectResult {
  success: boolean;
  elementId: string;
  appliedParams: { [key: string]: unknown };
}

/** Arguments of `undo`: Undo */
export type UndoArgs = Record<string, never>;

/** Result of `undo`. */
export interface UndoResult {
  success: boolean;
  undone: string;
  canUndo?: boolean;
  canRedo?: boolean;
}

/** Arguments of `redo`: Redo */
export type RedoArgs = Record<string, never>;

/** Result of `redo`. */
export interface RedoResult {
  success: boolean;
  redone: string;
  canUndo?: boolean;
  canRedo?: boolean;
}

/** Arguments of `batch`: Batch */
export interface BatchArgs {
  /** Tool calls to run in order */
  steps: {
    /** Tool name */
    tool: string;
    /** That tool's arguments */
    args?: { [key: string]: unknown };
  }[];
}

/** Result of `batch`. */
export interface BatchResult {
  success: boolean;
  results: {
    tool: string;
    result: { [key: string]: unknown };
  }[];
}

/** Each tool's arguments, by tool name. */
export interface ToolArgsMap {
  list_project_assets: ListProjectAssetsArgs;
  list_timeline: ListTimelineArgs;
  load_asset_context: LoadAssetContextArgs;
  split: SplitArgs;
  delete_timeline_elements: DeleteTimelineElementsArgs;
  move_timeline_elements: MoveTimelineElementsArgs;
  add_text: AddTextArgs;
  update_text: UpdateTextArgs;
  add_media_to_timeline: AddMediaToTimelineArgs;
  update_timeline_element_timing: UpdateTimelineElementTimingArgs;
  delete_element: DeleteElementArgs;
  set_volume: SetVolumeArgs;
  add_sticker: AddStickerArgs;
  list_effects: ListEffectsArgs;
  get_effect: GetEffectArgs;
  apply_effect: ApplyEffectArgs;
  update_effect: UpdateEffectArgs;
  undo: UndoArgs;
  redo: RedoArgs;
  batch: BatchArgs;
}

/** Each tool's successful result, by tool name. */
export interface ToolResultMap {
  list_project_assets: ListProjectAssetsResult;
  list_timeline: ListTimelineResult;
  load_asset_context: LoadAssetContextResult;
  split: SplitResult;
  delete_timeline_elements: DeleteTimelineElementsResult;
  move_timeline_elements: MoveTimelineElementsResult;
  add_text: AddTextResult;
  update_text: UpdateTextResult;
  add_media_to_timeline: AddMediaToTimelineResult;
  update_timeline_element_timing: UpdateTimelineElementTimingResult;
  delete_element: DeleteElementResult;
  set_volume: SetVolumeResult;
  add_sticker: AddStickerResult;
  list_effects: ListEffectsResult;
  get_effect: GetEffectResult;
  apply_effect: ApplyEffectResult;
  update_effect: UpdateEffectResult;
  undo: UndoResult;
  redo: RedoResult;
  batch: BatchResult;
}

/** The name of a tool. */
export type ToolName = keyof ToolArgsMap;

/** Every tool name, in catalog order. */
export const TOOL_NAMES: readonly ToolName[] = [
  "list_project_assets",
  "list_timeline",
  "load_asset_context",
  "split",
  "delete_timeline_elements",
  "move_timeline_elements",
  "add_text",
  "update_text",
  "add_media_to_timeline",
  "update_timeline_element_timing",
  "delete_element",
  "set_volume",
  "add_sticker",
  "list_effects",
  "get_effect",
  "apply_effect",
  "update_effect",
  "undo",
  "redo",
  "batch",
];

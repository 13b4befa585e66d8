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
    /** The host does not draw this track */
    hidden?: true;
    /** The host plays this track silent */
    muted?: true;
    elements: {
      elementId: string;
      /** Short stable name (clip-1, text-3, sticker-2, effect-1) that every tool takes in place of the elementId */
      ref?: string;
      type: string;
      assetId?: string;
      name?: string;
      start: number;
      end: number;
      duration: number;
      /** Source seconds skipped at the head; absent when 0 */
      trimStart?: number;
      /** Playback speed of a retimed video or audio clip (source seconds per timeline second); absent when 1 */
      rate?: number;
      /** Linear gain, 1 is unchanged; absent when 1. Above 1 is a host boost (up to 10, +20 dB) */
      volume?: number;
      /** Not drawn; absent when shown */
      hidden?: true;
      /** Silent; absent when audible */
      muted?: true;
      /** The mask's shape (update_clip's mask), when it has one */
      mask?: string;
      text?: string;
      position?: string;
      stickerId?: string;
      effectType?: string;
      /** The text's look; absent fields are the host's defaults */
      textStyle?: {
        /** Pixels at the project canvas */
        fontSize?: number;
        fontFamily?: string;
        color?: string;
        fontWeight?: string;
        fontStyle?: string;
        textAlign?: string;
        textDecoration?: string;
        /** Box colour behind the text; absent when none */
        background?: string;
        letterSpacing?: number;
        lineHeight?: number;
        /** The box's geometry (update_text's background), each when set */
        "background.paddingX"?: number;
        "background.paddingY"?: number;
        "background.offsetX"?: number;
        "background.offsetY"?: number;
        "background.cornerRadius"?: number;
      };
      params?: { [key: string]: unknown };
    }[];
  }[];
  /** End of the last element, seconds */
  duration: number;
  /** Element types the host does not draw (its elementKinds): the tools add none of them; absent when it draws all */
  notDrawn?: string[];
  /** The canvas background (update_project), when it is not black */
  background?: { [key: string]: unknown };
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
  newElements: {
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

/** Arguments of `cut_ranges`: Cut out time ranges */
export interface CutRangesArgs {
  /** Timeline spans to remove, seconds, each start < end */
  ranges: {
    start: number;
    end: number;
  }[];
  /** Close the gaps by moving later elements left (default true) */
  ripple?: boolean;
  /** Only these tracks (ids from list_timeline); default every track */
  trackIds?: string[];
}

/** Result of `cut_ranges`. */
export interface CutRangesResult {
  success: boolean;
  /** The spans removed, joined and in order, seconds */
  ranges: {
    start: number;
    end: number;
  }[];
  /** Seconds of timeline time removed */
  removedDuration: number;
  /** Elements removed whole */
  removedElements: string[];
  /** Elements that lost part of their time (they keep their id) */
  shortenedElements: string[];
  /** New elements: the parts after the first of an element a span cut through */
  newElements: {
    elementId: string;
    splitFrom: string;
    trackId: string;
  }[];
  /** How many elements moved left (ripple) */
  shiftedElements: number;
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
  /** Font family, a name from the host's font list (OpenCut's default Arial) */
  fontFamily?: string;
  /** Text size in canvas pixels */
  fontSize?: number;
  /** Text colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) */
  color?: string;
  fontWeight?: "normal" | "bold";
  fontStyle?: "normal" | "italic";
  /** Which edge of the text sits on its position (OpenCut's default center) */
  textAlign?: "left" | "center" | "right";
  textDecoration?: "none" | "underline" | "line-through";
  /** Extra pixels between letters (OpenCut's default 0) */
  letterSpacing?: number;
  /** Line spacing, a multiple of the font size (OpenCut's default 1.2) */
  lineHeight?: number;
  /** A box behind the text; drawn unless enabled is false (update_text: only the keys given change) */
  background?: {
    /** Whether the box is drawn (default true: giving background turns it on) */
    enabled?: boolean;
    /** Box colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000) */
    color?: string;
    /** Space left and right of the text, in pixels at the default font size, growing with the font (default 30) */
    paddingX?: number;
    /** Space above and below the text, as paddingX (default 42) */
    paddingY?: number;
    /** Shift of the box from the text, pixels (+ is right) */
    offsetX?: number;
    /** Shift of the box from the text, pixels (+ is down) */
    offsetY?: number;
    /** Corner rounding, percent of half the box's shorter side (0 square, 100 round ends) */
    cornerRadius?: number;
  };
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
  /** Font family, a name from the host's font list (OpenCut's default Arial) */
  fontFamily?: string;
  /** Text size in canvas pixels */
  fontSize?: number;
  /** Text colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) */
  color?: string;
  fontWeight?: "normal" | "bold";
  fontStyle?: "normal" | "italic";
  /** Which edge of the text sits on its position (OpenCut's default center) */
  textAlign?: "left" | "center" | "right";
  textDecoration?: "none" | "underline" | "line-through";
  /** Extra pixels between letters (OpenCut's default 0) */
  letterSpacing?: number;
  /** Line spacing, a multiple of the font size (OpenCut's default 1.2) */
  lineHeight?: number;
  /** A box behind the text; drawn unless enabled is false (update_text: only the keys given change) */
  background?: {
    /** Whether the box is drawn (default true: giving background turns it on) */
    enabled?: boolean;
    /** Box colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000) */
    color?: string;
    /** Space left and right of the text, in pixels at the default font size, growing with the font (default 30) */
    paddingX?: number;
    /** Space above and below the text, as paddingX (default 42) */
    paddingY?: number;
    /** Shift of the box from the text, pixels (+ is right) */
    offsetX?: number;
    /** Shift of the box from the text, pixels (+ is down) */
    offsetY?: number;
    /** Corner rounding, percent of half the box's shorter side (0 square, 100 round ends) */
    cornerRadius?: number;
  };
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

/** Arguments of `list_stickers`: List stickers */
export interface ListStickersArgs {
  /** Filter by name, id, country code or region (default: all) */
  query?: string;
  /** Most stickers to return (default 50) */
  limit?: number;
}

/** Result of `list_stickers`. */
export interface ListStickersResult {
  stickers: {
    /** The stickerId add_sticker takes */
    id: string;
    name: string;
    /** flags or shapes (OpenCut's), or the catalog id's prefix */
    provider: string;
  }[];
  /** Every match, before limit */
  total: number;
}

/** Arguments of `add_sticker`: Add sticker */
export interface AddStickerArgs {
  /** Sticker id from list_stickers, such as flags:US */
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

/** Arguments of `add_graphic`: Add shape */
export interface AddGraphicArgs {
  /** Which of OpenCut's shapes */
  shape: "rectangle" | "ellipse" | "polygon" | "star";
  /** When it appears, in timeline seconds */
  start: number;
  /** When it disappears, in timeline seconds */
  end: number;
  /** Where in the frame (default center) */
  position?: "top-left" | "top-right" | "center" | "bottom-left" | "bottom-right";
  /** Drawn size in canvas pixels: one number for a square, or {width, height} */
  size?: unknown;
  /** Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #ffffff) */
  fill?: string;
  /** An outline (default none) */
  stroke?: {
    /** Outline colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000) */
    color?: string;
    /** Outline width in pixels of the 512-pixel shape, growing with its drawn size (default 0: no outline) */
    width?: number;
    /** Where the outline sits on the shape's edge (default center) */
    align?: "inside" | "center" | "outside";
  };
  /** Rectangle or polygon: corner rounding 0 to 50 (50 fully round; default 0) */
  cornerRadius?: number;
  /** Polygon: sides, 3 to 12 (default 5) */
  sides?: number;
  /** Star: points, 3 to 12 (default 5) */
  points?: number;
  /** Star: inner radius, percent of the outer, 1 to 99 (default 45) */
  depth?: number;
}

/** Result of `add_graphic`. */
export interface AddGraphicResult {
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

/** Arguments of `get_element`: Get element */
export interface GetElementArgs {
  /** Element id or ref (clip-1) from list_timeline */
  elementId: string;
}

/** Result of `get_element`. */
export interface GetElementResult {
  elementId: string;
  ref: string;
  trackId: string;
  type: string;
  name?: string;
  start: number;
  end: number;
  duration: number;
  /** Video and audio: the source seconds played (start, end), trims and rate */
  source?: { [key: string]: unknown };
  /** Property path → {value, unit} */
  properties?: { [key: string]: unknown };
  text?: string;
  textStyle?: { [key: string]: unknown };
  params?: { [key: string]: unknown };
  /** The mask (video, image, graphic): {type, params}, its parameters as stored */
  mask?: { [key: string]: unknown };
  keyframes: { [key: string]: unknown }[];
}

/** Arguments of `update_clip`: Update clip properties */
export interface UpdateClipArgs {
  /** Element ids or refs from list_timeline */
  elementIds: string[];
  /** An anchor name, {anchor, margin} (margin in pixels from the canvas edges; default 5% of the shorter side), or {x, y} in canvas pixels from the centre (+y down) */
  position?: unknown;
  /** Factor over the size fitted to the canvas: one number for both axes, or {x, y} */
  scale?: unknown;
  /** Degrees, clockwise */
  rotation?: number;
  /** 0 invisible, 1 opaque */
  opacity?: number;
  /** How it mixes with what is below */
  blendMode?: "normal" | "darken" | "multiply" | "color-burn" | "lighten" | "screen" | "plus-lighter" | "color-dodge" | "overlay" | "soft-light" | "hard-light" | "difference" | "exclusion" | "hue" | "saturation" | "color" | "luminosity";
  /** Decibels; 0 plays as recorded, -60 is the quietest (use muted for silence) */
  volume?: number;
  /** Silence a video or audio element */
  muted?: boolean;
  /** Stop drawing a visual element */
  hidden?: boolean;
  /** Playback speed of a video or audio clip: 2 plays twice as fast (the clip gets half as long), 0.5 half as fast; 1 is normal */
  speed?: number;
  /** Keep the sound's pitch when the speed is not 1 (OpenCut's option; off by default, as there) */
  maintainPitch?: boolean;
  /** A shape that shows only part of a video, image or graphic (OpenCut's masks: box shapes, split, text, freeform); the same type again changes only the parameters given, another starts from OpenCut's defaults (a centred square of 0.6 of the shorter side; "Mask" in Arial) */
  mask?: {
    /** The shape, or "none" to take the mask away */
    type: "none" | "rectangle" | "ellipse" | "diamond" | "star" | "heart" | "cinematic-bars" | "split" | "text" | "freeform";
    /** The shape's centre from the element's centre, a fraction of its width (-1 to 1) */
    centerX?: number;
    /** The same, a fraction of its height, +y down */
    centerY?: number;
    /** Box shapes: width as a fraction of the element's (default a square of 0.6 of its shorter side) */
    width?: number;
    /** Box shapes: height as a fraction of the element's */
    height?: number;
    /** Degrees, clockwise (a split's line turns about its centre) */
    rotation?: number;
    /** Text and freeform: a factor on the shape's size (default 1) */
    scale?: number;
    /** Soft edge, in canvas pixels across the outline */
    feather?: number;
    /** Show what is outside the shape instead */
    inverted?: boolean;
    /** Outline colour, #rrggbb */
    strokeColor?: string;
    /** Outline width in canvas pixels (0: none) */
    strokeWidth?: number;
    /** Where the outline runs: inside, on or outside the shape's edge */
    strokeAlign?: "inside" | "center" | "outside";
    /** Text: the words the picture shows through (default "Mask"; lines split at \n) */
    content?: string;
    /** Text: OpenCut's text size (default 15, a sixth of the element's height per line) */
    fontSize?: number;
    /** Text: font family (default Arial) */
    fontFamily?: string;
    /** Text */
    fontWeight?: "normal" | "bold";
    /** Text */
    fontStyle?: "normal" | "italic";
    /** Text */
    textDecoration?: "none" | "underline" | "line-through";
    /** Text: extra pixels between letters */
    letterSpacing?: number;
    /** Text: line spacing, a factor of the font size (default 1.2) */
    lineHeight?: number;
    /** Freeform: the outline's points in order, each a cubic bezier's anchor with its in and out handles */
    path?: {
      /** The point's id as get_element shows it (kept; new points get one) */
      id?: string;
      /** Anchor, a fraction of the element's width from the mask's centre (-10 to 10) */
      x: number;
      /** Anchor, a fraction of its height, +y down */
      y: number;
      /** Handle into the point, an offset from it (default 0: a corner) */
      inX?: number;
      inY?: number;
      /** Handle out of the point, an offset from it */
      outX?: number;
      outY?: number;
    }[];
    /** Freeform: whether the last point joins the first (default true for a new path; an open path masks nothing) */
    closed?: boolean;
  };
  /** A graphic's look (add_graphic's): fill, stroke {color, width, align}, cornerRadius, sides, points, depth; only the keys given change */
  graphic?: {
    /** Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) */
    fill?: string;
    /** A graphic's outline, OpenCut's stroke group. */
    stroke?: {
      /** Outline colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000) */
      color?: string;
      /** Outline width in pixels of the 512-pixel shape, growing with its drawn size (default 0: no outline) */
      width?: number;
      /** Where the outline sits on the shape's edge (default center) */
      align?: "inside" | "center" | "outside";
    };
    /** Corner rounding of a rectangle or polygon, 0 to 50 (50 fully round) */
    cornerRadius?: number;
    /** A polygon's sides, 3 to 12 */
    sides?: number;
    /** A star's points, 3 to 12 */
    points?: number;
    /** A star's inner radius, percent of its outer radius, 1 to 99 */
    depth?: number;
  };
}

/** Result of `update_clip`. */
export interface UpdateClipResult {
  success: boolean;
  elements: {
    elementId: string;
    /** With speed or maintainPitch: the clip's speed, pitch option and new timing (seconds) */
    speed?: number;
    maintainPitch?: boolean;
    start?: number;
    end?: number;
    duration?: number;
  }[];
  warnings?: string[];
}

/** Arguments of `update_project`: Update project settings */
export interface UpdateProjectArgs {
  /** A colour, or {type: "blur", blurIntensity} */
  background?: unknown;
}

/** Result of `update_project`. */
export interface UpdateProjectResult {
  success: boolean;
  /** The background as the project now stores it (OpenCut's settings.background) */
  background: { [key: string]: unknown };
}

/** Arguments of `duplicate_elements`: Duplicate elements */
export interface DuplicateElementsArgs {
  /** Element ids or refs from list_timeline */
  elementIds: string[];
  /** Seconds added to each copy's start (default: right after the originals) */
  offset?: number;
  /** Where the earliest copy starts, in timeline seconds */
  startTime?: number;
  /** Put every copy on this track */
  trackId?: string;
}

/** Result of `duplicate_elements`. */
export interface DuplicateElementsResult {
  success: boolean;
  elements: {
    elementId: string;
    sourceId: string;
    trackId: string;
    start: number;
    end: number;
  }[];
}

/** Arguments of `update_track`: Update track */
export interface UpdateTrackArgs {
  /** Track id from list_timeline */
  trackId: string;
  /** Silence the track (main, overlay, audio) */
  muted?: boolean;
  /** Stop drawing the track (not audio) */
  hidden?: boolean;
  /** New name */
  name?: string;
}

/** Result of `update_track`. */
export interface UpdateTrackResult {
  success: boolean;
  trackId: string;
  type: string;
  name?: string;
  hidden?: boolean;
  muted?: boolean;
}

/** Arguments of `move_track`: Move track */
export interface MoveTrackArgs {
  /** Track id from list_timeline */
  trackId: string;
  /** New position in list_timeline's track order (0 is in front) */
  index?: number;
  /** Put it just above this track */
  above?: string;
  /** Put it just below this track */
  below?: string;
}

/** Result of `move_track`. */
export interface MoveTrackResult {
  success: boolean;
  trackId: string;
  index: number;
  tracks: string[];
}

/** Arguments of `list_animatable_properties`: List animatable properties */
export interface ListAnimatablePropertiesArgs {
  /** Element id or ref (clip-1) from list_timeline */
  elementId: string;
}

/** Result of `list_animatable_properties`. */
export interface ListAnimatablePropertiesResult {
  elementId: string;
  type: string;
  properties: {
    property: string;
    type: string;
    unit: string;
    value: unknown;
    animated: boolean;
    min?: number;
    max?: number;
    description?: string;
  }[];
}

/** Arguments of `list_keyframes`: List keyframes */
export interface ListKeyframesArgs {
  /** Element id or ref from list_timeline */
  elementId: string;
  /** Only this property (default: every animated one) */
  property?: string;
}

/** Result of `list_keyframes`. */
export interface ListKeyframesResult {
  elementId: string;
  duration: number;
  properties: { [key: string]: unknown }[];
}

/** Arguments of `upsert_keyframe`: Add or change keyframe */
export interface UpsertKeyframeArgs {
  /** Element id or ref from list_timeline */
  elementId: string;
  /** Property path from list_animatable_properties, such as opacity or transform.positionX */
  property: string;
  /** Seconds from the element's start (0 to its duration) */
  time: number;
  /** The value there, in the property's unit; colours as #rrggbb */
  value: number | string;
  /** How the value moves to the next keyframe (default linear) */
  interpolation?: "linear" | "hold" | "bezier";
}

/** Result of `upsert_keyframe`. */
export interface UpsertKeyframeResult {
  success: boolean;
  elementId: string;
  property: string;
  keyframe: { [key: string]: unknown };
  keyframes: unknown[];
}

/** Arguments of `remove_keyframe`: Remove keyframe */
export interface RemoveKeyframeArgs {
  /** Element id or ref from list_timeline */
  elementId: string;
  /** Property path */
  property: string;
  /** Keyframe id from list_keyframes */
  keyframeId?: string;
  /** Or the keyframe's time, seconds from the element's start */
  time?: number;
}

/** Result of `remove_keyframe`. */
export interface RemoveKeyframeResult {
  success: boolean;
  elementId: string;
  property: string;
  removedTime: number;
  keyframes: unknown[];
}

/** Arguments of `update_keyframe_curve`: Update keyframe curve */
export interface UpdateKeyframeCurveArgs {
  /** Element id or ref from list_timeline */
  elementId: string;
  /** Property path */
  property: string;
  /** Keyframe id from list_keyframes */
  keyframeId?: string;
  /** Or the keyframe's time, seconds from the element's start */
  time?: number;
  /** How the value moves to the next keyframe */
  interpolation?: "linear" | "hold" | "bezier";
  /** A ready-made curve to the next keyframe */
  easing?: "linear" | "ease-in" | "ease-out" | "ease-in-out";
  /** Bezier handle towards the next keyframe (dt 0 to the gap) */
  rightHandle?: {
    /** Seconds */
    dt: number;
    /** Value change */
    dv: number;
  };
  /** Bezier handle from the previous keyframe (dt minus the gap to 0) */
  leftHandle?: {
    /** Seconds */
    dt: number;
    /** Value change */
    dv: number;
  };
}

/** Result of `update_keyframe_curve`. */
export interface UpdateKeyframeCurveResult {
  success: boolean;
  elementId: string;
  property: string;
  keyframes: unknown[];
}

/** Arguments of `check_timeline`: Check timeline */
export interface CheckTimelineArgs {
  /** Check from here, in timeline seconds (default 0) */
  start?: number;
  /** Check up to here, in timeline seconds (default the timeline's end); after start */
  end?: number;
}

/** Result of `check_timeline`. */
export interface CheckTimelineResult {
  /** Sorted by start, then kind */
  findings: {
    /** black, frozen and silence come only from a host that renders */
    kind: "gap" | "black" | "frozen" | "silence" | "offscreen-text" | "overlapping-text" | "past-source" | "effect-without-picture";
    /** Timeline seconds */
    start: number;
    end: number;
    /** The elements involved; absent for a gap */
    elementIds?: string[];
    /** What is wrong and what to do about it */
    message: string;
  }[];
}

/** Arguments of `add_captions`: Add captions */
export interface AddCaptionsArgs {
  /** The video or audio element whose speech it is (from list_timeline); words outside it are left out */
  elementId?: string;
  /** The video or audio asset whose speech it is, for every placement of it */
  assetId?: string;
  /** The words, timeline seconds, in spoken order: transcribe_video's segments[].words. Left out, the in-page agent fills them from transcribe_video */
  words?: {
    start: number;
    end: number;
    text: string;
  }[];
  /** Most characters on one line (default 42) */
  maxCharsPerLine?: number;
  /** Most lines in one caption (default 2) */
  maxLines?: number;
  /** Shortest a caption stays, seconds, unless the next one starts (default 0.8, OpenCut's) */
  minDuration?: number;
  /** Style preset (default subtitle) */
  style?: "plain" | "subtitle" | "hook" | "label";
  /** Where in the frame (default bottom) */
  position?: "top" | "center" | "bottom";
}

/** Result of `add_captions`. */
export interface AddCaptionsResult {
  /** The captions tracks, top first (more than one when cues overlap) */
  trackIds: string[];
  /** Captions added */
  count: number;
  /** The first caption's start, seconds */
  start: number;
  /** The last caption's end, seconds */
  end: number;
}

/** Arguments of `import_subtitles`: Import subtitles */
export interface ImportSubtitlesArgs {
  /** The subtitle file's text */
  text: string;
  /** Its format */
  format: "srt" | "vtt" | "ass";
  /** Style preset (default subtitle) */
  style?: "plain" | "subtitle" | "hook" | "label";
  /** Where in the frame (default bottom) */
  position?: "top" | "center" | "bottom";
}

/** Result of `import_subtitles`. */
export interface ImportSubtitlesResult {
  /** The captions tracks, top first (more than one when cues overlap) */
  trackIds: string[];
  /** Captions added */
  count: number;
  /** The first caption's start, seconds */
  start: number;
  /** The last caption's end, seconds */
  end: number;
}

/** Arguments of `export_subtitles`: Export subtitles */
export interface ExportSubtitlesArgs {
  /** The file format */
  format: "srt" | "vtt" | "ass";
}

/** Result of `export_subtitles`. */
export interface ExportSubtitlesResult {
  format: string;
  /** Cues written */
  count: number;
  /** The file's text */
  text: string;
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
  cut_ranges: CutRangesArgs;
  move_timeline_elements: MoveTimelineElementsArgs;
  add_text: AddTextArgs;
  update_text: UpdateTextArgs;
  add_media_to_timeline: AddMediaToTimelineArgs;
  update_timeline_element_timing: UpdateTimelineElementTimingArgs;
  delete_element: DeleteElementArgs;
  set_volume: SetVolumeArgs;
  list_stickers: ListStickersArgs;
  add_sticker: AddStickerArgs;
  add_graphic: AddGraphicArgs;
  list_effects: ListEffectsArgs;
  get_effect: GetEffectArgs;
  apply_effect: ApplyEffectArgs;
  update_effect: UpdateEffectArgs;
  get_element: GetElementArgs;
  update_clip: UpdateClipArgs;
  update_project: UpdateProjectArgs;
  duplicate_elements: DuplicateElementsArgs;
  update_track: UpdateTrackArgs;
  move_track: MoveTrackArgs;
  list_animatable_properties: ListAnimatablePropertiesArgs;
  list_keyframes: ListKeyframesArgs;
  upsert_keyframe: UpsertKeyframeArgs;
  remove_keyframe: RemoveKeyframeArgs;
  update_keyframe_curve: UpdateKeyframeCurveArgs;
  check_timeline: CheckTimelineArgs;
  add_captions: AddCaptionsArgs;
  import_subtitles: ImportSubtitlesArgs;
  export_subtitles: ExportSubtitlesArgs;
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
  cut_ranges: CutRangesResult;
  move_timeline_elements: MoveTimelineElementsResult;
  add_text: AddTextResult;
  update_text: UpdateTextResult;
  add_media_to_timeline: AddMediaToTimelineResult;
  update_timeline_element_timing: UpdateTimelineElementTimingResult;
  delete_element: DeleteElementResult;
  set_volume: SetVolumeResult;
  list_stickers: ListStickersResult;
  add_sticker: AddStickerResult;
  add_graphic: AddGraphicResult;
  list_effects: ListEffectsResult;
  get_effect: GetEffectResult;
  apply_effect: ApplyEffectResult;
  update_effect: UpdateEffectResult;
  get_element: GetElementResult;
  update_clip: UpdateClipResult;
  update_project: UpdateProjectResult;
  duplicate_elements: DuplicateElementsResult;
  update_track: UpdateTrackResult;
  move_track: MoveTrackResult;
  list_animatable_properties: ListAnimatablePropertiesResult;
  list_keyframes: ListKeyframesResult;
  upsert_keyframe: UpsertKeyframeResult;
  remove_keyframe: RemoveKeyframeResult;
  update_keyframe_curve: UpdateKeyframeCurveResult;
  check_timeline: CheckTimelineResult;
  add_captions: AddCaptionsResult;
  import_subtitles: ImportSubtitlesResult;
  export_subtitles: ExportSubtitlesResult;
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
  "cut_ranges",
  "move_timeline_elements",
  "add_text",
  "update_text",
  "add_media_to_timeline",
  "update_timeline_element_timing",
  "delete_element",
  "set_volume",
  "list_stickers",
  "add_sticker",
  "add_graphic",
  "list_effects",
  "get_effect",
  "apply_effect",
  "update_effect",
  "get_element",
  "update_clip",
  "update_project",
  "duplicate_elements",
  "update_track",
  "move_track",
  "list_animatable_properties",
  "list_keyframes",
  "upsert_keyframe",
  "remove_keyframe",
  "update_keyframe_curve",
  "check_timeline",
  "add_captions",
  "import_subtitles",
  "export_subtitles",
  "undo",
  "redo",
  "batch",
];

/** Tools whose output carries text made by users or models (asset names, element text, summaries):
 * data, never instructions. WebMCP's `untrustedContentHint`. */
export const UNTRUSTED_OUTPUT_TOOLS: readonly ToolName[] = [
  "list_project_assets",
  "list_timeline",
  "load_asset_context",
  "list_stickers",
  "get_element",
  "update_track",
  "export_subtitles",
  "undo",
  "redo",
  "batch",
];

/** The error messages each tool can return (the spec's strings; `<x>` marks a filled-in part). */
export const TOOL_ERRORS: Readonly<Record<ToolName, readonly string[]>> = {
  list_project_assets: ["No active project"],
  list_timeline: ["No active timeline"],
  load_asset_context: ["Asset not found","Unsupported asset type","Failed to load asset context"],
  split: ["Invalid split times","No timeline content"],
  delete_timeline_elements: ["Invalid element ids","Timeline elements not found: <ids>","No timeline content"],
  cut_ranges: ["Invalid ranges","Track not found: <id>","Invalid track id","No timeline content"],
  move_timeline_elements: ["Invalid element ids","Invalid start time","Timeline elements not found: <ids>","Target track not found: <id>","Target track <id> is <a type> track and cannot hold <type> elements","Element <id> on track <id> is in the way (<start>s to <end>s)","No timeline content"],
  add_text: ["Text is required","Invalid time range","This host does not draw <type> elements"],
  update_text: ["Text element not found","Element is not text","Invalid time range","Text is required","Element <id> on track <id> is in the way (<start>s to <end>s)"],
  add_media_to_timeline: ["Asset not found","Invalid track type for asset","Invalid duration","Duration exceeds source duration","Invalid start time","Element <id> on track <id> is in the way (<start>s to <end>s)","This host does not draw <type> elements"],
  update_timeline_element_timing: ["Invalid element id","Invalid timing update","Invalid start time","Invalid end time","Invalid duration","Invalid time range","Conflicting timing values","Timeline element not found: <id>","Duration exceeds source duration","Element <id> on track <id> is in the way (<start>s to <end>s)"],
  delete_element: ["Element not found"],
  set_volume: ["Volume must be between 0 and 1","Element does not support volume","Element not found"],
  list_stickers: ["No active project","Argument \"limit\" must be a whole number from 1 to 500"],
  add_sticker: ["Sticker not found","Invalid time range","This host does not draw <type> elements"],
  add_graphic: ["Invalid time range","Argument \"<name>\" must be <rule>","<A shape> has no <param>; it takes <params>","This host does not draw <type> elements"],
  list_effects: [],
  get_effect: ["Invalid effect type","Effect not found: <type>"],
  apply_effect: ["Invalid effect type","Effect not found: <type>","Invalid start time","Invalid end time","Invalid time range","Invalid effect parameters","Unknown parameter: <key>","Parameter '<key>' must be >= <min>","Parameter '<key>' must be <= <max>","No active timeline","Failed to place effect element","This host does not draw <type> elements"],
  update_effect: ["Invalid element id","params is required and must be a non-empty object","No active timeline","Timeline element not found: <id>","Element is not an effect","Effect not found: <type>","Unknown parameter: <key>","Parameter '<key>' must be >= <min>","Parameter '<key>' must be <= <max>","Invalid effect parameters"],
  get_element: ["Invalid element id","Timeline element not found: <id>","Unknown reference <ref>; candidates: <refs>","No active timeline"],
  update_clip: ["Invalid element ids","Timeline elements not found: <ids>","Property \"<name>\" must be <range>","Element <id> is <a type> element and has no <property>","update_clip needs at least one property to change","Element <id> on track <id> is in the way (<start>s to <end>s)","<A shape> has no <param>; it takes <params>","Argument \"<name>\" must be <rule>","No active timeline"],
  update_project: ["update_project needs background","No active timeline"],
  duplicate_elements: ["Invalid element ids","Timeline elements not found: <ids>","Invalid start time","Give offset or startTime, not both","Target track not found: <id>","Target track <id> is <a type> track and cannot hold <type> elements","Element <id> on track <id> is in the way (<start>s to <end>s)","This host does not draw <type> elements"],
  update_track: ["Invalid track id","Track not found: <id>","update_track needs muted, hidden or name","Track <id> is <a type> track, which cannot be muted (it makes no sound)","Track <id> is an audio track, which cannot be hidden (mute it instead)"],
  move_track: ["Invalid track id","Track not found: <id>","Give exactly one of index, above or below","Track <id> can move to index <min> to <max> (<why>)","Track <id> is the main track, which stays between the visual and the audio tracks","A track cannot move above or below itself"],
  list_animatable_properties: ["Invalid element id","Timeline element not found: <id>","No active timeline"],
  list_keyframes: ["Invalid element id","Timeline element not found: <id>","No active timeline"],
  upsert_keyframe: ["Invalid element id","Timeline element not found: <id>","Property \"<p>\" cannot be animated on <type> element; animatable: <list>","Property \"<p>\" cannot be animated: <type> elements have no animatable properties","Keyframe time must be from 0 to <duration> (seconds from the element's start)","Property \"<p>\" must be <range>"],
  remove_keyframe: ["Invalid element id","Timeline element not found: <id>","Property \"<p>\" cannot be animated on <type> element; animatable: <list>","Property \"<p>\" cannot be animated: <type> elements have no animatable properties","Keyframe not found: <id>","Give exactly one of keyframeId (from list_keyframes) or time (seconds from the element's start)"],
  update_keyframe_curve: ["Invalid element id","Timeline element not found: <id>","Keyframe not found: <id>","update_keyframe_curve needs interpolation, easing, rightHandle or leftHandle","The keyframe at <t>s is the last of <property>: easing and rightHandle shape the curve to the next keyframe"],
  check_timeline: ["Invalid start time","Invalid end time","Invalid time range"],
  add_captions: ["Give assetId or elementId, not both","Element not found","Asset not found","Unsupported asset type","No words to caption","Invalid words: word <n> <why>","Asset is not on the timeline","Argument \"<name>\" must be <rule>"],
  import_subtitles: ["Invalid subtitles: <why>","Argument \"<name>\" must be <rule>"],
  export_subtitles: ["No captions to export","Argument \"<name>\" must be <rule>"],
  undo: ["Nothing to undo"],
  redo: ["Nothing to redo"],
  batch: ["Invalid batch steps","Tool <name> cannot run inside batch","<the failing step's own error>"],
};

/** Errors any tool can return besides its own (argument checks, references, no timeline). */
export const COMMON_TOOL_ERRORS: readonly string[] = ["Arguments must be a JSON object","unknown argument \"<name>\" for <tool>; expected: <names>","Argument \"<name>\" must be <rule>","Unknown reference <ref>; <the references there are>","No active project","No active timeline"];

export { ERROR_CODES, type ErrorCode } from "./error-codes.js";

/** The engine's unit of time: every time in a project is a whole number of ticks (src/time.rs). */
export const TICKS_PER_SECOND = 120000;

/** Every element type, in the order `editor.elementKinds()` lists them (src/model/timeline.rs). */
export const ELEMENT_KINDS = ["video", "image", "audio", "text", "sticker", "graphic", "effect"] as const;
/** An element type a host may draw (`createEditor({ elementKinds })`). */
export type ElementKind = (typeof ELEMENT_KINDS)[number];

/** OpenCut's mask shapes, every one of which update_clip sets and the renderers draw (src/masks.rs). */
export const MASK_TYPES = ["rectangle", "ellipse", "diamond", "star", "heart", "cinematic-bars", "split", "text", "freeform"] as const;

/** An effect type of the effect registry: what `createEditor({ effects })` takes. */
export type EffectType = "blur" | "brightness-contrast" | "grayscale" | "saturation" | "sepia" | "invert" | "vignette";

/** Every effect type, in registry order (the default of `createEditor({ effects })`). */
export const EFFECT_TYPES: readonly EffectType[] = [
  "blur",
  "brightness-contrast",
  "grayscale",
  "saturation",
  "sepia",
  "invert",
  "vignette",
];

/** One numeric parameter of an effect (src/effects/mod.rs). */
export interface EffectParameter {
  key: string;
  label: string;
  default: number;
  min: number;
  max: number;
  step: number;
  /** What the parameter does, in a few words. */
  meaning: string;
}

/** Each effect's parameters, in registry order: what `apply_effect` and `update_effect` accept. */
export const EFFECT_PARAMETERS: Readonly<Record<EffectType, readonly EffectParameter[]>> = {
  "blur": [
    { key: "intensity", label: "Intensity", default: 15, min: 0, max: 100, step: 1, meaning: "How strong the blur is; 0 leaves the picture sharp, 100 is a soft blur of about 20 pixels on a 1080p frame." },
  ],
  "brightness-contrast": [
    { key: "brightness", label: "Brightness", default: 0, min: -1, max: 1, step: 0.01, meaning: "Added to every channel; -1 is black, 1 is white." },
    { key: "contrast", label: "Contrast", default: 1, min: 0, max: 3, step: 0.01, meaning: "Multiplies the distance from mid-grey; 1 leaves it unchanged." },
  ],
  "grayscale": [
    { key: "intensity", label: "Intensity", default: 100, min: 0, max: 100, step: 1, meaning: "Percent of the way to grey; 0 leaves colour." },
  ],
  "saturation": [
    { key: "saturation", label: "Saturation", default: 100, min: 0, max: 300, step: 1, meaning: "Percent of the original saturation; 0 is grey." },
  ],
  "sepia": [
    { key: "intensity", label: "Intensity", default: 100, min: 0, max: 100, step: 1, meaning: "Percent of the way to full sepia." },
  ],
  "invert": [
    { key: "intensity", label: "Intensity", default: 100, min: 0, max: 100, step: 1, meaning: "Percent of the way to the full negative." },
  ],
  "vignette": [
    { key: "radius", label: "Radius", default: 75, min: 10, max: 100, step: 1, meaning: "Where darkening starts, in percent of the centre-to-corner distance." },
    { key: "softness", label: "Softness", default: 35, min: 5, max: 80, step: 1, meaning: "Width of the fade from clear to dark, in percent." },
  ],
};

/** What `addAsset` takes (the media bytes stay with the host). */
export interface AssetOptions {
  /** Your own id; one is generated when absent. */
  id?: string;
  name: string;
  type: "video" | "audio" | "image";
  /** Seconds; required in practice for video and audio. */
  duration?: number;
  width?: number;
  height?: number;
  /** `30`, or `{ numerator: 30000, denominator: 1001 }`. */
  fps?: number | {
    numerator: number;
    denominator: number;
  };
}

/** An effect element active at a time, as `effectsAt` returns it and a host renders it. */
export interface ActiveEffect {
  elementId: string;
  trackId: string;
  effectType: string;
  /** Every parameter of the effect, defaults filled in for any the element lacks. */
  params: { [key: string]: number };
  /** The element's time range, in seconds. */
  start: number;
  end: number;
}

/** A cached provider file reference: the spec's cache entry plus the provider's expiry and summary. */
export interface ContextRecord {
  assetId: string;
  provider: string;
  fileUri: string;
  status: "active" | "processing" | "failed";
  /** Milliseconds since the Unix epoch, from the host's clock. */
  createdAt: number;
  /** Milliseconds since the Unix epoch. */
  expiresAt?: number;
  summary?: string;
}

/** What a context provider reports back. */
export interface ProviderReport {
  fileUri: string;
  status: "active" | "processing" | "failed";
  /** Milliseconds since the Unix epoch. */
  expiresAt?: number;
  summary?: string;
}

/** One frame: the canvas and its layers, bottom first. */
export interface Frame {
  /** The time asked for, in seconds, and the tick it was rounded to. */
  time: number;
  tick: number;
  width: number;
  height: number;
  /** The colour under every layer (OpenCut's default background). */
  background: string;
  layers: FrameLayer[];
  /** Things at this time that are not drawn, and why (an unknown asset, an unknown effect). */
  skipped: FrameSkipped[];
}

/** One drawn layer. */
export type FrameLayer = MediaFrameLayer | TextFrameLayer | EffectFrameLayer;

/** A graphic as the compositor draws it into OpenCut's 512 × 512 source: its definition and each
 * of the definition's params at this time (keyframes applied, defaults filled in; crate::graphics). */
export interface FrameGraphic {
  /** rectangle, ellipse, polygon or star */
  definitionId: string;
  /** fill, stroke (colours), strokeWidth (px of the 512 source), strokeAlign (inside, center,
   * outside), and the shape's own: cornerRadius (rectangle, polygon), sides (polygon), points
   * and depth (star). */
  params: { [key: string]: unknown };
}

/** The transform params as they are at this time (before any fit). */
export interface FrameTransform {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  rotation: number;
}

/** Where a quad lands on the canvas: its centre and size in canvas pixels, rotation clockwise.
 * The GPU compositor draws it as it is (`gpu::compose::Quad`). */
export interface FramePlacement {
  centerX: number;
  centerY: number;
  /** Drawn size (absolute; a negative scale flips instead). */
  width: number;
  height: number;
  rotation: number;
  flipX: boolean;
  flipY: boolean;
}

/** OpenCut's blend modes (CSS `mix-blend-mode` names). */
export type BlendMode = "normal" | "darken" | "multiply" | "color-burn" | "lighten" | "screen" | "plus-lighter" | "color-dodge" | "overlay" | "soft-light" | "hard-light" | "difference" | "exclusion" | "hue" | "saturation" | "color" | "luminosity";

/** An enabled clip effect of an element (its own pixels only). */
export interface FrameClipEffect {
  effectType: string;
  params: { [key: string]: number };
}

/** A mask as the compositor draws it: OpenCut's shape and every parameter (feather and stroke
 * width in canvas pixels, centre and size as fractions of the element's drawn size). */
export interface FrameMask {
  /** rectangle, ellipse, diamond, star, heart, cinematic-bars, split, text or freeform */
  type: string;
  params: { [key: string]: unknown };
}

/** A video frame, an image or a sticker, drawn as a transformed quad. */
export interface MediaFrameLayer {
  kind: "media";
  elementId: string;
  trackId: string;
  /** video, image, sticker or graphic (one of OpenCut's shapes, drawn from `graphic`). */
  mediaType: "video" | "image" | "sticker" | "graphic";
  assetId?: string;
  stickerId?: string;
  /** A graphic's shape and its definition params at this time. */
  graphic?: FrameGraphic;
  /** Where the picture comes from, when the project knows (a sticker's catalog URL). */
  url?: string;
  /** Video: the source time to show, in seconds and ticks (trim and retime applied). */
  sourceTime?: number;
  sourceTick?: number;
  /** The source's size in pixels when the project knows it (asset size, sticker intrinsic size). */
  sourceWidth?: number;
  sourceHeight?: number;
  transform: FrameTransform;
  /** The quad on the canvas; absent when the source size is unknown (the compositor fits it
   * the same way, `frame::place`, once it has the picture). */
  placement?: FramePlacement;
  opacity: number;
  blendMode: BlendMode;
  effects: FrameClipEffect[];
  /** The element's mask (OpenCut's first; crate::masks), its parameters with the defaults
   * filled in: the compositor shows only the picture inside it. */
  mask?: FrameMask;
}

/** A text block's background box, in pixels. */
export interface FrameTextBackground {
  color: string;
  paddingX: number;
  paddingY: number;
  offsetX: number;
  offsetY: number;
  /** Percent of half the box's shorter side. */
  cornerRadius: number;
}

/** A text element, its style resolved at this time. */
export interface TextFrameLayer {
  kind: "text";
  elementId: string;
  trackId: string;
  content: string;
  fontFamily: string;
  /** Pixels on the canvas (OpenCut's fontSize × canvasHeight / 90). */
  fontSize: number;
  fontWeight: string;
  fontStyle: string;
  color: string;
  textAlign: string;
  textDecoration: string;
  /** Pixels between letters, and line height as a multiple of the font size. */
  letterSpacing: number;
  lineHeight: number;
  background?: FrameTextBackground;
  /** The anchor on the canvas (left edge, centre or right edge of the block per `textAlign`,
   * vertically centred), in canvas pixels from the top-left corner. */
  anchorX: number;
  anchorY: number;
  transform: FrameTransform;
  opacity: number;
  blendMode: BlendMode;
  effects: FrameClipEffect[];
}

/** An effect element: applied to the picture composited so far. */
export interface EffectFrameLayer {
  kind: "effect";
  elementId: string;
  trackId: string;
  effectType: string;
  /** Every parameter, defaults filled in. */
  params: { [key: string]: number };
  /** Indices in `layers` of the layers it acts on: every layer below it. */
  covers: number[];
}

/** An element that is visible now but cannot be drawn. */
export interface FrameSkipped {
  elementId: string;
  reason: string;
}

/** The audible clips over `[from, to)`. */
export interface AudioPlan {
  from: number;
  to: number;
  /** Seconds between two entries of a clip's `gains`. */
  step: number;
  clips: AudioPlanClip[];
}

/** One clip that sounds somewhere in the span. */
export interface AudioPlanClip {
  elementId: string;
  trackId: string;
  assetId: string;
  /** Timeline seconds where the clip starts and ends (the whole clip, not cut to the span). */
  start: number;
  end: number;
  /** Source seconds at the clip's start (`trimStart`). */
  sourceStart: number;
  /** Source seconds per timeline second (OpenCut's `retime.rate`, 1 without). */
  rate: number;
  /** Keep the sound's pitch at that rate (OpenCut's `retime.maintainPitch`): the export
   * stretches it in time instead of playing it faster or slower. */
  maintainPitch: boolean;
  /** Linear gain at `gainsFrom + i × step`; one entry when the volume is not animated. */
  gains: number[];
  /** Timeline seconds of `gains[0]`: the later of the span's and the clip's start. */
  gainsFrom: number;
}

/** A saved project, as `editor.project()` returns it and `createEditor({ project })` takes it
 * (times in ticks). `timeline` is null for a project with no active scene. */
export interface ProjectJson {
  format: "neuralcut-project";
  version: number;
  settings?: ProjectSettings;
  assets?: AssetJson[];
  stickers?: StickerJson[];
  /** The active timeline: tracks top first, elements by start, times in ticks (read it through
   * the tools, e.g. list_timeline). */
  timeline?: { [key: string]: unknown } | null;
  /** The next number the id allocator hands out. Outside undo history, so ids are never reused. */
  nextId?: number;
  [key: string]: unknown;
}

/** The project's frame rate and canvas, and any other settings the host stores (kept as they are). */
export interface ProjectSettings {
  fps?: FrameRate;
  canvas?: ProjectCanvas;
  [key: string]: unknown;
}

/** A rational frame rate such as 30/1 or 24000/1001. */
export interface FrameRate {
  numerator: number;
  denominator: number;
}

/** The canvas size in pixels. */
export interface ProjectCanvas {
  width: number;
  height: number;
}

/** A media file known to the project (its bytes stay with the host), as the project stores it. */
export interface AssetJson {
  id: string;
  name: string;
  type: AssetType;
  /** Seconds (video and audio). */
  duration?: number;
  width?: number;
  height?: number;
  fps?: FrameRate;
  [key: string]: unknown;
}

export type AssetType = "video" | "audio" | "image";

/** An entry of the sticker catalog (`provider:value` ids such as `flags:us`). */
export interface StickerJson {
  id: string;
  name: string;
  url?: string;
  [key: string]: unknown;
}

/** What a tool call resolves to when it fails: the spec's message, a stable code, maybe a hint,
 * and structured details beside them. */
export interface ToolErrorResult {
  /** The tool spec's message. */
  error: string;
  /** A code of `ERROR_CODES` (typed as text: codes from a bridge or a proxy pass through). */
  code: string;
  /** How to fix the call, where there is a way. */
  hint?: string;
  [key: string]: unknown;
}

/** A tool's catalog entry (the same catalog MCP, WebMCP and Gemini are given). */
export interface ToolInfo {
  name: ToolName;
  title: string;
  description: string;
  /** JSON Schema 2020-12 of the arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema 2020-12 of a successful result. */
  outputSchema: Record<string, unknown>;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** Every tool's catalog entry, in order: `registry::catalog()` of the Rust crate. */
export const TOOL_CATALOG: readonly ToolInfo[] = [
  {
    "name": "list_project_assets",
    "title": "List project assets",
    "description": "List the media assets (video, audio, image) loaded in the project, with their stable ids, durations in seconds and whether the timeline uses them. Call this first when you need an assetId. Filter by usage (all, used, unused) and by type. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "filter": {
          "type": "string",
          "enum": [
            "all",
            "used",
            "unused"
          ],
          "description": "Which assets by timeline usage (default all)"
        },
        "type": {
          "type": "string",
          "enum": [
            "all",
            "video",
            "audio",
            "image"
          ],
          "description": "Which asset type (default all)"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assets": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "video",
                  "audio",
                  "image"
                ]
              },
              "duration": {
                "type": "number"
              },
              "usedInTimeline": {
                "type": "boolean"
              }
            },
            "required": [
              "id",
              "name",
              "type",
              "usedInTimeline"
            ]
          }
        }
      },
      "required": [
        "assets"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "list_timeline",
    "title": "List timeline",
    "description": "Summarise the timeline: every track (trackId, type: main, overlay, text, effect or audio; listed from the top of the picture down, audio last) and its elements (elementId; ref, a short stable name such as clip-1, text-3, sticker-2 or effect-1 that every tool accepts in place of the elementId; type, assetId, name, start, end and duration in timeline seconds, plus text content and textStyle, effect params or sticker id; video and audio show trimStart, the source seconds skipped, when not 0, rate, the playback speed of a retimed clip, when not 1, volume when not 1 (above 1 is a host boost) and muted when silent; hidden tracks and elements say hidden, muted tracks muted; a masked element names its mask's shape; notDrawn names element types the host cannot show, which the tools do not add), and the canvas background when it is not black. Call this before editing whenever you do not have exact ids. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "tracks": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "trackId": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "main",
                  "overlay",
                  "audio",
                  "text",
                  "effect"
                ]
              },
              "name": {
                "type": "string"
              },
              "hidden": {
                "type": "boolean",
                "const": true,
                "description": "The host does not draw this track"
              },
              "muted": {
                "type": "boolean",
                "const": true,
                "description": "The host plays this track silent"
              },
              "elements": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "elementId": {
                      "type": "string"
                    },
                    "ref": {
                      "type": "string",
                      "description": "Short stable name (clip-1, text-3, sticker-2, effect-1) that every tool takes in place of the elementId"
                    },
                    "type": {
                      "type": "string"
                    },
                    "assetId": {
                      "type": "string"
                    },
                    "name": {
                      "type": "string"
                    },
                    "start": {
                      "type": "number"
                    },
                    "end": {
                      "type": "number"
                    },
                    "duration": {
                      "type": "number"
                    },
                    "trimStart": {
                      "type": "number",
                      "description": "Source seconds skipped at the head; absent when 0"
                    },
                    "rate": {
                      "type": "number",
                      "description": "Playback speed of a retimed video or audio clip (source seconds per timeline second); absent when 1"
                    },
                    "volume": {
                      "type": "number",
                      "description": "Linear gain, 1 is unchanged; absent when 1. Above 1 is a host boost (up to 10, +20 dB)"
                    },
                    "hidden": {
                      "type": "boolean",
                      "const": true,
                      "description": "Not drawn; absent when shown"
                    },
                    "muted": {
                      "type": "boolean",
                      "const": true,
                      "description": "Silent; absent when audible"
                    },
                    "mask": {
                      "type": "string",
                      "description": "The mask's shape (update_clip's mask), when it has one"
                    },
                    "text": {
                      "type": "string"
                    },
                    "position": {
                      "type": "string"
                    },
                    "stickerId": {
                      "type": "string"
                    },
                    "effectType": {
                      "type": "string"
                    },
                    "textStyle": {
                      "type": "object",
                      "properties": {
                        "fontSize": {
                          "type": "number",
                          "description": "Pixels at the project canvas"
                        },
                        "fontFamily": {
                          "type": "string"
                        },
                        "color": {
                          "type": "string"
                        },
                        "fontWeight": {
                          "type": "string"
                        },
                        "fontStyle": {
                          "type": "string"
                        },
                        "textAlign": {
                          "type": "string"
                        },
                        "textDecoration": {
                          "type": "string"
                        },
                        "background": {
                          "type": "string",
                          "description": "Box colour behind the text; absent when none"
                        },
                        "letterSpacing": {
                          "type": "number"
                        },
                        "lineHeight": {
                          "type": "number"
                        },
                        "background.paddingX": {
                          "type": "number",
                          "description": "The box's geometry (update_text's background), each when set"
                        },
                        "background.paddingY": {
                          "type": "number"
                        },
                        "background.offsetX": {
                          "type": "number"
                        },
                        "background.offsetY": {
                          "type": "number"
                        },
                        "background.cornerRadius": {
                          "type": "number"
                        }
                      },
                      "description": "The text's look; absent fields are the host's defaults"
                    },
                    "params": {
                      "type": "object"
                    }
                  },
                  "required": [
                    "elementId",
                    "type",
                    "start",
                    "end",
                    "duration"
                  ]
                }
              }
            },
            "required": [
              "trackId",
              "type",
              "elements"
            ]
          }
        },
        "duration": {
          "type": "number",
          "description": "End of the last element, seconds"
        },
        "notDrawn": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Element types the host does not draw (its elementKinds): the tools add none of them; absent when it draws all"
        },
        "background": {
          "type": "object",
          "description": "The canvas background (update_project), when it is not black"
        }
      },
      "required": [
        "tracks",
        "duration"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "load_asset_context",
    "title": "Load asset into context",
    "description": "Make a project asset (video first; audio and image too) available to the multimodal model by uploading it to Gemini once; later calls reuse the cached file. Returns status loaded, or processing if the file is not ready yet (call again later). Does not edit the timeline. assetId comes from list_project_assets; an unambiguous file name also works.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "Asset id from list_project_assets"
        }
      },
      "required": [
        "assetId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string"
        },
        "status": {
          "type": "string",
          "enum": [
            "loaded",
            "processing"
          ]
        },
        "cached": {
          "type": "boolean"
        },
        "provider": {
          "type": "string",
          "const": "gemini"
        },
        "fileUri": {
          "type": "string"
        },
        "summary": {
          "type": "string"
        }
      },
      "required": [
        "assetId",
        "status",
        "cached",
        "provider"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": true
    }
  },
  {
    "name": "split",
    "title": "Split at times",
    "description": "Cut every element of every track at each given timeline time (seconds) that falls strictly inside it; deletes nothing. The left part keeps its elementId, each right part gets a new one (listed in newElements with the element it was split from). Times on an existing boundary make no cut, so repeating a split is harmless. To remove a range, split at its start and end, then delete_timeline_elements the pieces inside.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "times": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "number",
            "minimum": 0
          },
          "description": "Timeline seconds to cut at"
        }
      },
      "required": [
        "times"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "affectedElements": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "newElements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "splitFrom": {
                "type": "string"
              },
              "trackId": {
                "type": "string"
              },
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              }
            },
            "required": [
              "elementId",
              "splitFrom",
              "trackId",
              "start",
              "end"
            ]
          }
        }
      },
      "required": [
        "success",
        "affectedElements",
        "newElements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "delete_timeline_elements",
    "title": "Delete timeline elements",
    "description": "Delete the given elements (elementIds from list_timeline) and nothing else; other elements do not move. All ids must exist or nothing is deleted. To delete a time range, split at its edges first.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementIds": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Element ids from list_timeline"
        }
      },
      "required": [
        "elementIds"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "deletedElements": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "success",
        "deletedElements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "cut_ranges",
    "title": "Cut out time ranges",
    "description": "Remove spans of timeline time (seconds) from every track, or from the tracks in trackIds, in one undo step: elements a span cuts through are divided at its edges as split divides them and the parts inside go; the first part left keeps the element's id. With ripple (the default) everything after a span moves left by its length on those tracks, so no gap is left and picture, sound, captions and effects stay in sync; ripple false leaves the gaps. Overlapping or touching ranges are joined. This is how silences or filler words are removed: find them (detect_silences, a transcript), then cut them. Example: {\"ranges\":[{\"start\":4.2,\"end\":5.0},{\"start\":9,\"end\":9.6}]}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "ranges": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "number",
                "minimum": 0
              },
              "end": {
                "type": "number",
                "minimum": 0
              }
            },
            "required": [
              "start",
              "end"
            ],
            "additionalProperties": false,
            "description": "One span of timeline time."
          },
          "description": "Timeline spans to remove, seconds, each start < end"
        },
        "ripple": {
          "type": "boolean",
          "description": "Close the gaps by moving later elements left (default true)"
        },
        "trackIds": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Only these tracks (ids from list_timeline); default every track"
        }
      },
      "required": [
        "ranges"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "ranges": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              }
            },
            "required": [
              "start",
              "end"
            ]
          },
          "description": "The spans removed, joined and in order, seconds"
        },
        "removedDuration": {
          "type": "number",
          "description": "Seconds of timeline time removed"
        },
        "removedElements": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Elements removed whole"
        },
        "shortenedElements": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Elements that lost part of their time (they keep their id)"
        },
        "newElements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "splitFrom": {
                "type": "string"
              },
              "trackId": {
                "type": "string"
              }
            },
            "required": [
              "elementId",
              "splitFrom",
              "trackId"
            ]
          },
          "description": "New elements: the parts after the first of an element a span cut through"
        },
        "shiftedElements": {
          "type": "integer",
          "minimum": 0,
          "description": "How many elements moved left (ripple)"
        }
      },
      "required": [
        "success",
        "ranges",
        "removedDuration",
        "removedElements",
        "shortenedElements",
        "newElements",
        "shiftedElements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "move_timeline_elements",
    "title": "Move timeline elements",
    "description": "Move elements so the earliest one starts at start (timeline seconds); the others keep their offsets relative to it. With targetTrackId (from list_timeline) they all move to that track, which must accept them (video and image: main or overlay; stickers: overlay; text: text; effects: effect; audio: audio). Fails without changing anything if an element is missing or the destination overlaps another element.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementIds": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Element ids from list_timeline"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "New start of the earliest element, in timeline seconds"
        },
        "targetTrackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track to move them all to (default: each stays on its track)"
        }
      },
      "required": [
        "elementIds",
        "start"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "movedElements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "trackId": {
                "type": "string"
              },
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              }
            },
            "required": [
              "elementId",
              "trackId",
              "start",
              "end"
            ]
          }
        }
      },
      "required": [
        "success",
        "movedElements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "add_text",
    "title": "Add text",
    "description": "Add a text element (title, hook, label or one subtitle line) from start to end (timeline seconds) at the top, center or bottom of the frame, with an optional style preset (plain, subtitle, hook, label) and any of OpenCut's text settings over it: fontFamily, fontSize (pixels), color, fontWeight, fontStyle, textAlign, textDecoration, letterSpacing, lineHeight, and a background box {color, paddingX, paddingY, offsetX, offsetY, cornerRadius}. It goes on the first text track free at that time; a new text track is created when none is. For subtitles, call it once per line.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "text": {
          "type": "string",
          "minLength": 1,
          "description": "The text to show"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "When it appears, in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "When it disappears, in timeline seconds"
        },
        "position": {
          "type": "string",
          "enum": [
            "top",
            "center",
            "bottom"
          ],
          "description": "Where in the frame"
        },
        "style": {
          "type": "string",
          "enum": [
            "plain",
            "subtitle",
            "hook",
            "label"
          ],
          "description": "Style preset (default plain)"
        },
        "fontFamily": {
          "type": "string",
          "minLength": 1,
          "description": "Font family, a name from the host's font list (OpenCut's default Arial)"
        },
        "fontSize": {
          "type": "number",
          "minimum": 0,
          "description": "Text size in canvas pixels"
        },
        "color": {
          "type": "string",
          "description": "Text colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)"
        },
        "fontWeight": {
          "type": "string",
          "enum": [
            "normal",
            "bold"
          ]
        },
        "fontStyle": {
          "type": "string",
          "enum": [
            "normal",
            "italic"
          ]
        },
        "textAlign": {
          "type": "string",
          "enum": [
            "left",
            "center",
            "right"
          ],
          "description": "Which edge of the text sits on its position (OpenCut's default center)"
        },
        "textDecoration": {
          "type": "string",
          "enum": [
            "none",
            "underline",
            "line-through"
          ]
        },
        "letterSpacing": {
          "type": "number",
          "minimum": -100,
          "description": "Extra pixels between letters (OpenCut's default 0)"
        },
        "lineHeight": {
          "type": "number",
          "minimum": 0.1,
          "description": "Line spacing, a multiple of the font size (OpenCut's default 1.2)"
        },
        "background": {
          "type": "object",
          "properties": {
            "enabled": {
              "type": "boolean",
              "description": "Whether the box is drawn (default true: giving background turns it on)"
            },
            "color": {
              "type": "string",
              "description": "Box colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)"
            },
            "paddingX": {
              "type": "number",
              "minimum": 0,
              "description": "Space left and right of the text, in pixels at the default font size, growing with the font (default 30)"
            },
            "paddingY": {
              "type": "number",
              "minimum": 0,
              "description": "Space above and below the text, as paddingX (default 42)"
            },
            "offsetX": {
              "type": "number",
              "minimum": -100000,
              "description": "Shift of the box from the text, pixels (+ is right)"
            },
            "offsetY": {
              "type": "number",
              "minimum": -100000,
              "description": "Shift of the box from the text, pixels (+ is down)"
            },
            "cornerRadius": {
              "type": "number",
              "minimum": 0,
              "maximum": 100,
              "description": "Corner rounding, percent of half the box's shorter side (0 square, 100 round ends)"
            }
          },
          "additionalProperties": false,
          "description": "A box behind the text; drawn unless enabled is false (update_text: only the keys given change)"
        }
      },
      "required": [
        "text",
        "start",
        "end",
        "position"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        }
      },
      "required": [
        "elementId",
        "trackId"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "update_text",
    "title": "Update text",
    "description": "Change a text element found by trackId and elementId (from list_timeline). Only the fields given change: text, start or end (timeline seconds; each moves that edge only), position, and OpenCut's text settings: fontFamily, fontSize (pixels), color, fontWeight, fontStyle, textAlign, textDecoration, letterSpacing, lineHeight, and the background box {enabled, color, paddingX, paddingY, offsetX, offsetY, cornerRadius} (given, it is drawn unless enabled is false). Keyframes on color or the box override the value set here.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track id from list_timeline"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Text element id from list_timeline"
        },
        "text": {
          "type": "string",
          "minLength": 1,
          "description": "New text"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "New start, in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "New end, in timeline seconds"
        },
        "position": {
          "type": "string",
          "enum": [
            "top",
            "center",
            "bottom"
          ],
          "description": "New position"
        },
        "fontFamily": {
          "type": "string",
          "minLength": 1,
          "description": "Font family, a name from the host's font list (OpenCut's default Arial)"
        },
        "fontSize": {
          "type": "number",
          "minimum": 0,
          "description": "Text size in canvas pixels"
        },
        "color": {
          "type": "string",
          "description": "Text colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)"
        },
        "fontWeight": {
          "type": "string",
          "enum": [
            "normal",
            "bold"
          ]
        },
        "fontStyle": {
          "type": "string",
          "enum": [
            "normal",
            "italic"
          ]
        },
        "textAlign": {
          "type": "string",
          "enum": [
            "left",
            "center",
            "right"
          ],
          "description": "Which edge of the text sits on its position (OpenCut's default center)"
        },
        "textDecoration": {
          "type": "string",
          "enum": [
            "none",
            "underline",
            "line-through"
          ]
        },
        "letterSpacing": {
          "type": "number",
          "minimum": -100,
          "description": "Extra pixels between letters (OpenCut's default 0)"
        },
        "lineHeight": {
          "type": "number",
          "minimum": 0.1,
          "description": "Line spacing, a multiple of the font size (OpenCut's default 1.2)"
        },
        "background": {
          "type": "object",
          "properties": {
            "enabled": {
              "type": "boolean",
              "description": "Whether the box is drawn (default true: giving background turns it on)"
            },
            "color": {
              "type": "string",
              "description": "Box colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)"
            },
            "paddingX": {
              "type": "number",
              "minimum": 0,
              "description": "Space left and right of the text, in pixels at the default font size, growing with the font (default 30)"
            },
            "paddingY": {
              "type": "number",
              "minimum": 0,
              "description": "Space above and below the text, as paddingX (default 42)"
            },
            "offsetX": {
              "type": "number",
              "minimum": -100000,
              "description": "Shift of the box from the text, pixels (+ is right)"
            },
            "offsetY": {
              "type": "number",
              "minimum": -100000,
              "description": "Shift of the box from the text, pixels (+ is down)"
            },
            "cornerRadius": {
              "type": "number",
              "minimum": 0,
              "maximum": 100,
              "description": "Corner rounding, percent of half the box's shorter side (0 square, 100 round ends)"
            }
          },
          "additionalProperties": false,
          "description": "A box behind the text; drawn unless enabled is false (update_text: only the keys given change)"
        }
      },
      "required": [
        "trackId",
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        }
      },
      "required": [
        "success",
        "elementId"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "add_media_to_timeline",
    "title": "Add media to timeline",
    "description": "Place a project asset (assetId from list_project_assets) at startTime (timeline seconds) on a track of trackType: main or overlay for video and image, audio for audio. Video and audio use their full source duration unless duration (seconds) is given, which may not exceed it; images last 5 s by default. Overlay and audio go on the first free track of that type (a new one if needed); the one main track must be free at that time.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "Asset id from list_project_assets"
        },
        "startTime": {
          "type": "number",
          "minimum": 0,
          "description": "Where it starts, in timeline seconds"
        },
        "trackType": {
          "type": "string",
          "enum": [
            "main",
            "overlay",
            "audio"
          ],
          "description": "main or overlay for video and image, audio for audio"
        },
        "duration": {
          "type": "number",
          "exclusiveMinimum": 0,
          "description": "Length in seconds (default: the full source, or 5 s for images)"
        }
      },
      "required": [
        "assetId",
        "startTime",
        "trackType"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        }
      },
      "required": [
        "elementId",
        "trackId"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "update_timeline_element_timing",
    "title": "Update element timing",
    "description": "Change when an element (elementId from list_timeline) starts, ends or how long it lasts, in timeline seconds. start alone moves it; end or duration resizes it from its end; end and duration together must agree. Video and audio cannot last longer than their source allows. The asset itself never changes.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id from list_timeline"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "New start (moves the element), in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "New end (resizes it), in timeline seconds"
        },
        "duration": {
          "type": "number",
          "exclusiveMinimum": 0,
          "description": "New length in seconds (resizes it)"
        }
      },
      "required": [
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        },
        "start": {
          "type": "number"
        },
        "end": {
          "type": "number"
        },
        "duration": {
          "type": "number"
        }
      },
      "required": [
        "success",
        "elementId",
        "trackId",
        "start",
        "end",
        "duration"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "delete_element",
    "title": "Delete element (deprecated)",
    "description": "Deprecated: prefer delete_timeline_elements. Deletes one element found by trackId and elementId.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track id from list_timeline"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id from list_timeline"
        }
      },
      "required": [
        "trackId",
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        }
      },
      "required": [
        "success"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "set_volume",
    "title": "Set volume",
    "description": "Set the volume of a video or audio element (trackId and elementId from list_timeline) from 0 (silent) to 1 (full).",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track id from list_timeline"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Video or audio element id"
        },
        "volume": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "0 is silent, 1 is full volume"
        }
      },
      "required": [
        "trackId",
        "elementId",
        "volume"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "volume": {
          "type": "number"
        }
      },
      "required": [
        "success",
        "volume"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "list_stickers",
    "title": "List stickers",
    "description": "Find sticker ids for add_sticker: the host's catalog, then OpenCut's stickers (flags such as flags:US, by country name, code or region; shapes such as shapes:star). query filters case-insensitively; limit (default 50, at most 500) caps the list, total counts every match. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "query": {
          "type": "string",
          "description": "Filter by name, id, country code or region (default: all)"
        },
        "limit": {
          "type": "integer",
          "minimum": 1,
          "maximum": 500,
          "description": "Most stickers to return (default 50)"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "stickers": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "string",
                "description": "The stickerId add_sticker takes"
              },
              "name": {
                "type": "string"
              },
              "provider": {
                "type": "string",
                "description": "flags or shapes (OpenCut's), or the catalog id's prefix"
              }
            },
            "required": [
              "id",
              "name",
              "provider"
            ]
          }
        },
        "total": {
          "type": "integer",
          "description": "Every match, before limit"
        }
      },
      "required": [
        "stickers",
        "total"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "add_sticker",
    "title": "Add sticker",
    "description": "Add a sticker (stickerId from list_stickers, provider:value such as flags:US or shapes:star; flag codes in any case) from start to end (timeline seconds) at a corner or the center of the frame, a fifth of the frame's shorter side tall (scale 0.2; update_clip rescales it). It goes on the first overlay track of stickers and shapes free at that time (never one holding video or images, as OpenCut keeps stickers on graphic tracks), or a new overlay track on top.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "stickerId": {
          "type": "string",
          "minLength": 1,
          "description": "Sticker id from list_stickers, such as flags:US"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "When it appears, in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "When it disappears, in timeline seconds"
        },
        "position": {
          "type": "string",
          "enum": [
            "top-left",
            "top-right",
            "center",
            "bottom-left",
            "bottom-right"
          ],
          "description": "Where in the frame"
        }
      },
      "required": [
        "stickerId",
        "start",
        "end",
        "position"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        }
      },
      "required": [
        "elementId",
        "trackId"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "add_graphic",
    "title": "Add shape",
    "description": "Add one of OpenCut's shapes (rectangle, ellipse, polygon or star) from start to end (timeline seconds): fill colour, an outline (stroke {color, width, align}), and the shape's own settings (cornerRadius for a rectangle or polygon, sides for a polygon, points and depth for a star). size is its drawn size in canvas pixels, one number for a square or {width, height} (default a fifth of the frame's shorter side); position is a corner or the center (default center). It goes on the first overlay track of stickers and shapes free at that time, or a new overlay track on top, as OpenCut's graphic tracks. update_clip moves, scales, masks or restyles it (its graphic argument); the keyframe tools animate params.fill, params.stroke, params.strokeWidth and the shape's numbers.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "shape": {
          "type": "string",
          "enum": [
            "rectangle",
            "ellipse",
            "polygon",
            "star"
          ],
          "description": "Which of OpenCut's shapes"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "When it appears, in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "When it disappears, in timeline seconds"
        },
        "position": {
          "type": "string",
          "enum": [
            "top-left",
            "top-right",
            "center",
            "bottom-left",
            "bottom-right"
          ],
          "description": "Where in the frame (default center)"
        },
        "size": {
          "oneOf": [
            {
              "type": "number",
              "exclusiveMinimum": 0
            },
            {
              "type": "object",
              "properties": {
                "width": {
                  "type": "number",
                  "exclusiveMinimum": 0
                },
                "height": {
                  "type": "number",
                  "exclusiveMinimum": 0
                }
              },
              "required": [
                "width",
                "height"
              ],
              "additionalProperties": false
            }
          ],
          "description": "Drawn size in canvas pixels: one number for a square, or {width, height}"
        },
        "fill": {
          "type": "string",
          "description": "Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #ffffff)"
        },
        "stroke": {
          "type": "object",
          "properties": {
            "color": {
              "type": "string",
              "description": "Outline colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)"
            },
            "width": {
              "type": "number",
              "minimum": 0,
              "maximum": 64,
              "description": "Outline width in pixels of the 512-pixel shape, growing with its drawn size (default 0: no outline)"
            },
            "align": {
              "type": "string",
              "enum": [
                "inside",
                "center",
                "outside"
              ],
              "description": "Where the outline sits on the shape's edge (default center)"
            }
          },
          "additionalProperties": false,
          "description": "An outline (default none)"
        },
        "cornerRadius": {
          "type": "number",
          "minimum": 0,
          "maximum": 50,
          "description": "Rectangle or polygon: corner rounding 0 to 50 (50 fully round; default 0)"
        },
        "sides": {
          "type": "number",
          "minimum": 3,
          "maximum": 12,
          "description": "Polygon: sides, 3 to 12 (default 5)"
        },
        "points": {
          "type": "number",
          "minimum": 3,
          "maximum": 12,
          "description": "Star: points, 3 to 12 (default 5)"
        },
        "depth": {
          "type": "number",
          "minimum": 1,
          "maximum": 99,
          "description": "Star: inner radius, percent of the outer, 1 to 99 (default 45)"
        }
      },
      "required": [
        "shape",
        "start",
        "end"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        }
      },
      "required": [
        "elementId",
        "trackId"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "list_effects",
    "title": "List effects",
    "description": "List the available visual effects (id, name, description). Optional query filters by name or keyword, case-insensitively. First step of list_effects, get_effect, apply_effect. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "query": {
          "type": "string",
          "description": "Filter by name or keyword"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "effects": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "description": {
                "type": "string"
              }
            },
            "required": [
              "id",
              "name",
              "description"
            ]
          }
        }
      },
      "required": [
        "effects"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "get_effect",
    "title": "Get effect",
    "description": "Describe one effect (effectType from list_effects): each parameter's key, type, default, min, max, step and a readable description. Call before apply_effect to choose params. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "effectType": {
          "type": "string",
          "minLength": 1,
          "description": "Effect id from list_effects"
        }
      },
      "required": [
        "effectType"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "id": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "params": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "key": {
                "type": "string"
              },
              "label": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "number",
                  "boolean",
                  "color",
                  "select"
                ]
              },
              "default": {
                "type": [
                  "number",
                  "string",
                  "boolean"
                ]
              },
              "min": {
                "type": "number"
              },
              "max": {
                "type": "number"
              },
              "step": {
                "type": "number"
              },
              "options": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "value": {
                      "type": "string"
                    },
                    "label": {
                      "type": "string"
                    }
                  }
                }
              },
              "description": {
                "type": "string"
              }
            },
            "required": [
              "key",
              "label",
              "type",
              "default",
              "description"
            ]
          }
        }
      },
      "required": [
        "id",
        "name",
        "description",
        "params"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "apply_effect",
    "title": "Apply effect",
    "description": "Add an effect from start to end (timeline seconds) on an effect track; it changes the picture of every track below it. params override the defaults (see get_effect) and are checked against their ranges; the applied values are returned. Change them later with update_effect.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "effectType": {
          "type": "string",
          "minLength": 1,
          "description": "Effect id from list_effects"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "Effect start, in timeline seconds"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "Effect end, in timeline seconds"
        },
        "params": {
          "type": "object",
          "additionalProperties": {
            "type": [
              "number",
              "string",
              "boolean"
            ]
          },
          "description": "Effect parameters by key (see get_effect)"
        }
      },
      "required": [
        "effectType",
        "start",
        "end"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        },
        "appliedParams": {
          "type": "object"
        }
      },
      "required": [
        "elementId",
        "trackId",
        "appliedParams"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "update_effect",
    "title": "Update effect",
    "description": "Change some parameters of an effect element (elementId from list_timeline); parameters not given keep their values. Returns the full merged params.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Effect element id from list_timeline"
        },
        "params": {
          "type": "object",
          "additionalProperties": {
            "type": [
              "number",
              "string",
              "boolean"
            ]
          },
          "description": "Effect parameters by key (see get_effect)"
        }
      },
      "required": [
        "elementId",
        "params"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        },
        "appliedParams": {
          "type": "object"
        }
      },
      "required": [
        "success",
        "elementId",
        "appliedParams"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "get_element",
    "title": "Get element",
    "description": "Everything about one element (elementId or its ref from list_timeline): timing in timeline seconds, the source range of video and audio, every property with its unit as OpenCut stores it (transform.positionX/Y: canvas pixels of its centre from the canvas centre, +y down; transform.scaleX/Y: factor; transform.rotate: degrees clockwise; opacity 0-1; blendMode; volume in dB; muted; hidden), text and textStyle, effect params, its mask, and its keyframes. Reads only. Example: {\"elementId\":\"clip-1\"}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref (clip-1) from list_timeline"
        }
      },
      "required": [
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "ref": {
          "type": "string"
        },
        "trackId": {
          "type": "string"
        },
        "type": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "start": {
          "type": "number"
        },
        "end": {
          "type": "number"
        },
        "duration": {
          "type": "number"
        },
        "source": {
          "type": "object",
          "description": "Video and audio: the source seconds played (start, end), trims and rate"
        },
        "properties": {
          "type": "object",
          "description": "Property path → {value, unit}"
        },
        "text": {
          "type": "string"
        },
        "textStyle": {
          "type": "object"
        },
        "params": {
          "type": "object"
        },
        "mask": {
          "type": "object",
          "description": "The mask (video, image, graphic): {type, params}, its parameters as stored"
        },
        "keyframes": {
          "type": "array",
          "items": {
            "type": "object"
          }
        }
      },
      "required": [
        "elementId",
        "ref",
        "trackId",
        "type",
        "start",
        "end",
        "duration",
        "keyframes"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "update_clip",
    "title": "Update clip properties",
    "description": "Change how one or many elements look or sound, as one undo step: position (an anchor such as \"top-right\" or {\"anchor\":\"bottom-left\",\"margin\":40}, which keeps the element inside the frame that many pixels from the edges; or {\"x\":px,\"y\":px} from the canvas centre, +y down), scale (factor >= 0.01, or {\"x\":…,\"y\":…}), rotation (degrees -360 to 360, clockwise), opacity (0 to 1), blendMode (normal, multiply, screen, overlay, …), hidden (visual elements), volume (dB -60 to 20; 0 plays as recorded), muted, speed (0.01 to 5: 2 plays twice as fast and makes the clip half as long; OpenCut's rate, the clip's end following) and maintainPitch (keep the sound's pitch at that speed) (video and audio), and mask (video, image and graphic: {\"type\": rectangle, ellipse, diamond, star, heart, cinematic-bars or split, centerX, centerY, width, height, rotation, feather, inverted, strokeColor, strokeWidth, strokeAlign}; {\"type\": \"text\", content, fontSize, fontFamily, fontWeight, fontStyle, textDecoration, letterSpacing, lineHeight, scale, ...} shows the picture through the words; {\"type\": \"freeform\", path: [{x, y, inX, inY, outX, outY}, ...] (3 or more bezier points, fractions of the element's size from the mask's centre), closed, scale, ...}, OpenCut's masks; {\"type\": \"none\"} takes it away), and graphic (a shape from add_graphic: {fill, stroke: {color, width, align}, cornerRadius, sides, points, depth}). Only the properties given change. Example, a small logo in the corner: {\"elementIds\":[\"clip-1\"],\"scale\":0.3,\"position\":\"top-right\"}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementIds": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Element ids or refs from list_timeline"
        },
        "position": {
          "oneOf": [
            {
              "type": "string",
              "enum": [
                "top-left",
                "top",
                "top-right",
                "left",
                "center",
                "right",
                "bottom-left",
                "bottom",
                "bottom-right"
              ]
            },
            {
              "type": "object",
              "properties": {
                "anchor": {
                  "type": "string",
                  "enum": [
                    "top-left",
                    "top",
                    "top-right",
                    "left",
                    "center",
                    "right",
                    "bottom-left",
                    "bottom",
                    "bottom-right"
                  ]
                },
                "margin": {
                  "type": "number",
                  "minimum": 0
                }
              },
              "required": [
                "anchor"
              ],
              "additionalProperties": false
            },
            {
              "type": "object",
              "minProperties": 1,
              "properties": {
                "x": {
                  "type": "number",
                  "minimum": -100000
                },
                "y": {
                  "type": "number",
                  "minimum": -100000
                }
              },
              "additionalProperties": false
            }
          ],
          "description": "An anchor name, {anchor, margin} (margin in pixels from the canvas edges; default 5% of the shorter side), or {x, y} in canvas pixels from the centre (+y down)"
        },
        "scale": {
          "oneOf": [
            {
              "type": "number",
              "minimum": 0.01
            },
            {
              "type": "object",
              "minProperties": 1,
              "properties": {
                "x": {
                  "type": "number",
                  "minimum": 0.01
                },
                "y": {
                  "type": "number",
                  "minimum": 0.01
                }
              },
              "additionalProperties": false
            }
          ],
          "description": "Factor over the size fitted to the canvas: one number for both axes, or {x, y}"
        },
        "rotation": {
          "type": "number",
          "minimum": -360,
          "maximum": 360,
          "description": "Degrees, clockwise"
        },
        "opacity": {
          "type": "number",
          "minimum": 0,
          "maximum": 1,
          "description": "0 invisible, 1 opaque"
        },
        "blendMode": {
          "type": "string",
          "enum": [
            "normal",
            "darken",
            "multiply",
            "color-burn",
            "lighten",
            "screen",
            "plus-lighter",
            "color-dodge",
            "overlay",
            "soft-light",
            "hard-light",
            "difference",
            "exclusion",
            "hue",
            "saturation",
            "color",
            "luminosity"
          ],
          "description": "How it mixes with what is below"
        },
        "volume": {
          "type": "number",
          "minimum": -60,
          "maximum": 20,
          "description": "Decibels; 0 plays as recorded, -60 is the quietest (use muted for silence)"
        },
        "muted": {
          "type": "boolean",
          "description": "Silence a video or audio element"
        },
        "hidden": {
          "type": "boolean",
          "description": "Stop drawing a visual element"
        },
        "speed": {
          "type": "number",
          "minimum": 0.01,
          "maximum": 5,
          "description": "Playback speed of a video or audio clip: 2 plays twice as fast (the clip gets half as long), 0.5 half as fast; 1 is normal"
        },
        "maintainPitch": {
          "type": "boolean",
          "description": "Keep the sound's pitch when the speed is not 1 (OpenCut's option; off by default, as there)"
        },
        "mask": {
          "type": "object",
          "properties": {
            "type": {
              "type": "string",
              "enum": [
                "none",
                "rectangle",
                "ellipse",
                "diamond",
                "star",
                "heart",
                "cinematic-bars",
                "split",
                "text",
                "freeform"
              ],
              "description": "The shape, or \"none\" to take the mask away"
            },
            "centerX": {
              "type": "number",
              "minimum": -1,
              "maximum": 1,
              "description": "The shape's centre from the element's centre, a fraction of its width (-1 to 1)"
            },
            "centerY": {
              "type": "number",
              "minimum": -1,
              "maximum": 1,
              "description": "The same, a fraction of its height, +y down"
            },
            "width": {
              "type": "number",
              "minimum": 0.01,
              "description": "Box shapes: width as a fraction of the element's (default a square of 0.6 of its shorter side)"
            },
            "height": {
              "type": "number",
              "minimum": 0.01,
              "description": "Box shapes: height as a fraction of the element's"
            },
            "rotation": {
              "type": "number",
              "minimum": 0,
              "maximum": 360,
              "description": "Degrees, clockwise (a split's line turns about its centre)"
            },
            "scale": {
              "type": "number",
              "minimum": 0.01,
              "maximum": 5,
              "description": "Text and freeform: a factor on the shape's size (default 1)"
            },
            "feather": {
              "type": "number",
              "minimum": 0,
              "maximum": 1000,
              "description": "Soft edge, in canvas pixels across the outline"
            },
            "inverted": {
              "type": "boolean",
              "description": "Show what is outside the shape instead"
            },
            "strokeColor": {
              "type": "string",
              "description": "Outline colour, #rrggbb"
            },
            "strokeWidth": {
              "type": "number",
              "minimum": 0,
              "maximum": 100,
              "description": "Outline width in canvas pixels (0: none)"
            },
            "strokeAlign": {
              "type": "string",
              "enum": [
                "inside",
                "center",
                "outside"
              ],
              "description": "Where the outline runs: inside, on or outside the shape's edge"
            },
            "content": {
              "type": "string",
              "maxLength": 1000,
              "minLength": 1,
              "description": "Text: the words the picture shows through (default \"Mask\"; lines split at \\n)"
            },
            "fontSize": {
              "type": "number",
              "minimum": 5,
              "maximum": 300,
              "description": "Text: OpenCut's text size (default 15, a sixth of the element's height per line)"
            },
            "fontFamily": {
              "type": "string",
              "maxLength": 200,
              "minLength": 1,
              "description": "Text: font family (default Arial)"
            },
            "fontWeight": {
              "type": "string",
              "enum": [
                "normal",
                "bold"
              ],
              "description": "Text"
            },
            "fontStyle": {
              "type": "string",
              "enum": [
                "normal",
                "italic"
              ],
              "description": "Text"
            },
            "textDecoration": {
              "type": "string",
              "enum": [
                "none",
                "underline",
                "line-through"
              ],
              "description": "Text"
            },
            "letterSpacing": {
              "type": "number",
              "minimum": -100,
              "maximum": 500,
              "description": "Text: extra pixels between letters"
            },
            "lineHeight": {
              "type": "number",
              "minimum": 0.1,
              "maximum": 10,
              "description": "Text: line spacing, a factor of the font size (default 1.2)"
            },
            "path": {
              "type": "array",
              "maxItems": 1000,
              "items": {
                "type": "object",
                "properties": {
                  "id": {
                    "type": "string",
                    "description": "The point's id as get_element shows it (kept; new points get one)"
                  },
                  "x": {
                    "type": "number",
                    "description": "Anchor, a fraction of the element's width from the mask's centre (-10 to 10)"
                  },
                  "y": {
                    "type": "number",
                    "description": "Anchor, a fraction of its height, +y down"
                  },
                  "inX": {
                    "type": "number",
                    "description": "Handle into the point, an offset from it (default 0: a corner)"
                  },
                  "inY": {
                    "type": "number"
                  },
                  "outX": {
                    "type": "number",
                    "description": "Handle out of the point, an offset from it"
                  },
                  "outY": {
                    "type": "number"
                  }
                },
                "required": [
                  "x",
                  "y"
                ],
                "additionalProperties": false
              },
              "minItems": 1,
              "description": "Freeform: the outline's points in order, each a cubic bezier's anchor with its in and out handles"
            },
            "closed": {
              "type": "boolean",
              "description": "Freeform: whether the last point joins the first (default true for a new path; an open path masks nothing)"
            }
          },
          "required": [
            "type"
          ],
          "additionalProperties": false,
          "description": "A shape that shows only part of a video, image or graphic (OpenCut's masks: box shapes, split, text, freeform); the same type again changes only the parameters given, another starts from OpenCut's defaults (a centred square of 0.6 of the shorter side; \"Mask\" in Arial)"
        },
        "graphic": {
          "type": "object",
          "properties": {
            "fill": {
              "type": "string",
              "description": "Fill colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a)"
            },
            "stroke": {
              "type": "object",
              "properties": {
                "color": {
                  "type": "string",
                  "description": "Outline colour: #rrggbb, #rrggbbaa, rgb(r, g, b) or rgba(r, g, b, a) (default #000000)"
                },
                "width": {
                  "type": "number",
                  "minimum": 0,
                  "maximum": 64,
                  "description": "Outline width in pixels of the 512-pixel shape, growing with its drawn size (default 0: no outline)"
                },
                "align": {
                  "type": "string",
                  "enum": [
                    "inside",
                    "center",
                    "outside"
                  ],
                  "description": "Where the outline sits on the shape's edge (default center)"
                }
              },
              "additionalProperties": false,
              "description": "A graphic's outline, OpenCut's stroke group."
            },
            "cornerRadius": {
              "type": "number",
              "minimum": 0,
              "maximum": 50,
              "description": "Corner rounding of a rectangle or polygon, 0 to 50 (50 fully round)"
            },
            "sides": {
              "type": "number",
              "minimum": 3,
              "maximum": 12,
              "description": "A polygon's sides, 3 to 12"
            },
            "points": {
              "type": "number",
              "minimum": 3,
              "maximum": 12,
              "description": "A star's points, 3 to 12"
            },
            "depth": {
              "type": "number",
              "minimum": 1,
              "maximum": 99,
              "description": "A star's inner radius, percent of its outer radius, 1 to 99"
            }
          },
          "additionalProperties": false,
          "description": "A graphic's look (add_graphic's): fill, stroke {color, width, align}, cornerRadius, sides, points, depth; only the keys given change"
        }
      },
      "required": [
        "elementIds"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "speed": {
                "type": "number",
                "description": "With speed or maintainPitch: the clip's speed, pitch option and new timing (seconds)"
              },
              "maintainPitch": {
                "type": "boolean"
              },
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              },
              "duration": {
                "type": "number"
              }
            },
            "required": [
              "elementId"
            ]
          }
        },
        "warnings": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "success",
        "elements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "update_project",
    "title": "Update project settings",
    "description": "Change the project's settings, as one undo step. background is what the canvas shows under every layer, as OpenCut's Background panel sets it: a colour (\"#1e1e1e\", rgb(), rgba(), or \"transparent\" for none), or {\"type\":\"blur\",\"blurIntensity\":200}, the main track's picture blurred behind everything (OpenCut's presets: 100 light, 200 medium, 500 heavy; default 10). {\"type\":\"color\",\"color\":…} is the colour's long form.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "background": {
          "oneOf": [
            {
              "type": "string"
            },
            {
              "type": "object",
              "properties": {
                "type": {
                  "type": "string",
                  "enum": [
                    "color",
                    "blur"
                  ]
                },
                "color": {
                  "type": "string",
                  "description": "For type color"
                },
                "blurIntensity": {
                  "type": "number",
                  "minimum": 0,
                  "description": "For type blur: OpenCut's blur intensity (default 10)"
                }
              },
              "required": [
                "type"
              ],
              "additionalProperties": false
            }
          ],
          "description": "A colour, or {type: \"blur\", blurIntensity}"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "background": {
          "type": "object",
          "description": "The background as the project now stores it (OpenCut's settings.background)"
        }
      },
      "required": [
        "success",
        "background"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "duplicate_elements",
    "title": "Duplicate elements",
    "description": "Copy elements (elementIds or refs) with new ids and every property and keyframe, as one undo step. By default the copies start right after the last original ends; offset (seconds added to each start) or startTime (where the earliest copy starts; the others keep their spacing) place them elsewhere. Each copy stays on its track when that time is free, else goes on the first free track of that type (a new one if needed; the one main track must be free); trackId puts them all on that track, which must be free. Example: {\"elementIds\":[\"clip-2\"],\"startTime\":20}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementIds": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string",
            "minLength": 1
          },
          "description": "Element ids or refs from list_timeline"
        },
        "offset": {
          "type": "number",
          "description": "Seconds added to each copy's start (default: right after the originals)"
        },
        "startTime": {
          "type": "number",
          "minimum": 0,
          "description": "Where the earliest copy starts, in timeline seconds"
        },
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Put every copy on this track"
        }
      },
      "required": [
        "elementIds"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "sourceId": {
                "type": "string"
              },
              "trackId": {
                "type": "string"
              },
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              }
            },
            "required": [
              "elementId",
              "sourceId",
              "trackId",
              "start",
              "end"
            ]
          }
        }
      },
      "required": [
        "success",
        "elements"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "update_track",
    "title": "Update track",
    "description": "Switch a track (trackId from list_timeline) on or off, or rename it: muted silences every element on it (main, overlay and audio tracks), hidden stops drawing it (every track but audio), name is shown in the host's timeline. Only the fields given change. Example, mute the music: {\"trackId\":\"t14\",\"muted\":true}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track id from list_timeline"
        },
        "muted": {
          "type": "boolean",
          "description": "Silence the track (main, overlay, audio)"
        },
        "hidden": {
          "type": "boolean",
          "description": "Stop drawing the track (not audio)"
        },
        "name": {
          "type": "string",
          "maxLength": 100,
          "minLength": 1,
          "description": "New name"
        }
      },
      "required": [
        "trackId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "trackId": {
          "type": "string"
        },
        "type": {
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "hidden": {
          "type": "boolean"
        },
        "muted": {
          "type": "boolean"
        }
      },
      "required": [
        "success",
        "trackId",
        "type"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "move_track",
    "title": "Move track",
    "description": "Reorder tracks: a track higher in list_timeline is drawn in front. Give exactly one of index (its new position in list_timeline's track order), above or below (another trackId). Visual tracks stay above the main track and audio tracks below it; the main track does not move. Example, bring the text in front of everything: {\"trackId\":\"t10\",\"index\":0}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackId": {
          "type": "string",
          "minLength": 1,
          "description": "Track id from list_timeline"
        },
        "index": {
          "type": "integer",
          "minimum": 0,
          "description": "New position in list_timeline's track order (0 is in front)"
        },
        "above": {
          "type": "string",
          "minLength": 1,
          "description": "Put it just above this track"
        },
        "below": {
          "type": "string",
          "minLength": 1,
          "description": "Put it just below this track"
        }
      },
      "required": [
        "trackId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "trackId": {
          "type": "string"
        },
        "index": {
          "type": "number"
        },
        "tracks": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "success",
        "trackId",
        "index",
        "tracks"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "list_animatable_properties",
    "title": "List animatable properties",
    "description": "The properties of an element (elementId or ref) that keyframes can animate, as OpenCut names them (transform.positionX, transform.positionY, transform.scaleX, transform.scaleY, transform.rotate, opacity; volume for video and audio; color and background.* for text), each with its unit, range, current value and whether it is animated. Reads only. Example: {\"elementId\":\"text-1\"}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref (clip-1) from list_timeline"
        }
      },
      "required": [
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "type": {
          "type": "string"
        },
        "properties": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "property": {
                "type": "string"
              },
              "type": {
                "type": "string"
              },
              "unit": {
                "type": "string"
              },
              "value": {},
              "animated": {
                "type": "boolean"
              },
              "min": {
                "type": "number"
              },
              "max": {
                "type": "number"
              },
              "description": {
                "type": "string"
              }
            },
            "required": [
              "property",
              "type",
              "unit",
              "value",
              "animated"
            ]
          }
        }
      },
      "required": [
        "elementId",
        "type",
        "properties"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "list_keyframes",
    "title": "List keyframes",
    "description": "The keyframes of an element (elementId or ref), by property (optional property limits the list): keyframeId, time in seconds from the element's start, value and interpolation to the next keyframe (linear, hold or bezier). Reads only. Example: {\"elementId\":\"clip-1\",\"property\":\"opacity\"}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref from list_timeline"
        },
        "property": {
          "type": "string",
          "description": "Only this property (default: every animated one)"
        }
      },
      "required": [
        "elementId"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string"
        },
        "duration": {
          "type": "number"
        },
        "properties": {
          "type": "array",
          "items": {
            "type": "object"
          }
        }
      },
      "required": [
        "elementId",
        "duration",
        "properties"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "upsert_keyframe",
    "title": "Add or change keyframe",
    "description": "Set a property's value at a time (seconds from the element's start, 0 to its duration); between keyframes the value moves smoothly (interpolation linear, the default; hold jumps at the next keyframe; bezier eases, see update_keyframe_curve). A keyframe already at that time takes the new value. A fade in over 0.5 s is two calls: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"value\":0} then {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0.5,\"value\":1}. Colours take #rrggbb. Properties and ranges: list_animatable_properties.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref from list_timeline"
        },
        "property": {
          "type": "string",
          "minLength": 1,
          "description": "Property path from list_animatable_properties, such as opacity or transform.positionX"
        },
        "time": {
          "type": "number",
          "minimum": 0,
          "description": "Seconds from the element's start (0 to its duration)"
        },
        "value": {
          "type": [
            "number",
            "string"
          ],
          "description": "The value there, in the property's unit; colours as #rrggbb"
        },
        "interpolation": {
          "type": "string",
          "enum": [
            "linear",
            "hold",
            "bezier"
          ],
          "description": "How the value moves to the next keyframe (default linear)"
        }
      },
      "required": [
        "elementId",
        "property",
        "time",
        "value"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        },
        "property": {
          "type": "string"
        },
        "keyframe": {
          "type": "object"
        },
        "keyframes": {
          "type": "array"
        }
      },
      "required": [
        "success",
        "elementId",
        "property",
        "keyframe",
        "keyframes"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "remove_keyframe",
    "title": "Remove keyframe",
    "description": "Remove one keyframe of a property, named by keyframeId (from list_keyframes) or by its time (seconds from the element's start). A property left with no keyframes goes back to its plain value. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref from list_timeline"
        },
        "property": {
          "type": "string",
          "minLength": 1,
          "description": "Property path"
        },
        "keyframeId": {
          "type": "string",
          "minLength": 1,
          "description": "Keyframe id from list_keyframes"
        },
        "time": {
          "type": "number",
          "minimum": 0,
          "description": "Or the keyframe's time, seconds from the element's start"
        }
      },
      "required": [
        "elementId",
        "property"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        },
        "property": {
          "type": "string"
        },
        "removedTime": {
          "type": "number"
        },
        "keyframes": {
          "type": "array"
        }
      },
      "required": [
        "success",
        "elementId",
        "property",
        "removedTime",
        "keyframes"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "update_keyframe_curve",
    "title": "Update keyframe curve",
    "description": "Shape how a property moves from one keyframe (keyframeId or time) to the next: easing ease-in, ease-out, ease-in-out or linear (the simple way); or interpolation (linear, hold, bezier) and bezier handles rightHandle (towards the next keyframe) and leftHandle (from the previous one), each {dt: seconds, dv: value change}. Example: {\"elementId\":\"text-1\",\"property\":\"opacity\",\"time\":0,\"easing\":\"ease-out\"}.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "Element id or ref from list_timeline"
        },
        "property": {
          "type": "string",
          "minLength": 1,
          "description": "Property path"
        },
        "keyframeId": {
          "type": "string",
          "minLength": 1,
          "description": "Keyframe id from list_keyframes"
        },
        "time": {
          "type": "number",
          "minimum": 0,
          "description": "Or the keyframe's time, seconds from the element's start"
        },
        "interpolation": {
          "type": "string",
          "enum": [
            "linear",
            "hold",
            "bezier"
          ],
          "description": "How the value moves to the next keyframe"
        },
        "easing": {
          "type": "string",
          "enum": [
            "linear",
            "ease-in",
            "ease-out",
            "ease-in-out"
          ],
          "description": "A ready-made curve to the next keyframe"
        },
        "rightHandle": {
          "type": "object",
          "properties": {
            "dt": {
              "type": "number",
              "description": "Seconds"
            },
            "dv": {
              "type": "number",
              "description": "Value change"
            }
          },
          "required": [
            "dt",
            "dv"
          ],
          "additionalProperties": false,
          "description": "Bezier handle towards the next keyframe (dt 0 to the gap)"
        },
        "leftHandle": {
          "type": "object",
          "properties": {
            "dt": {
              "type": "number",
              "description": "Seconds"
            },
            "dv": {
              "type": "number",
              "description": "Value change"
            }
          },
          "required": [
            "dt",
            "dv"
          ],
          "additionalProperties": false,
          "description": "Bezier handle from the previous keyframe (dt minus the gap to 0)"
        }
      },
      "required": [
        "elementId",
        "property"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "elementId": {
          "type": "string"
        },
        "property": {
          "type": "string"
        },
        "keyframes": {
          "type": "array"
        }
      },
      "required": [
        "success",
        "elementId",
        "property",
        "keyframes"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "check_timeline",
    "title": "Check timeline",
    "description": "Look for problems to fix before export, between start and end (timeline seconds; default the whole timeline): gap (nothing on the main track), offscreen-text (a text's box, estimated from its font size and characters, passes the canvas edge), overlapping-text (two texts on screen at once whose boxes meet), past-source (a video or audio clip plays on after its source ends), effect-without-picture (an effect with nothing drawn under it). Each finding gives kind, start and end in seconds, the elementIds involved and a message saying what to fix; sorted by start, then kind. No findings means none of these. black, frozen and silence need rendered frames and the mixed sound: the engine never reports them, a host that renders may add them to the same list. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "Check from here, in timeline seconds (default 0)"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "Check up to here, in timeline seconds (default the timeline's end); after start"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "findings": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "kind": {
                "type": "string",
                "enum": [
                  "gap",
                  "black",
                  "frozen",
                  "silence",
                  "offscreen-text",
                  "overlapping-text",
                  "past-source",
                  "effect-without-picture"
                ],
                "description": "black, frozen and silence come only from a host that renders"
              },
              "start": {
                "type": "number",
                "description": "Timeline seconds"
              },
              "end": {
                "type": "number"
              },
              "elementIds": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "description": "The elements involved; absent for a gap"
              },
              "message": {
                "type": "string",
                "description": "What is wrong and what to do about it"
              }
            },
            "required": [
              "kind",
              "start",
              "end",
              "message"
            ]
          },
          "description": "Sorted by start, then kind"
        }
      },
      "required": [
        "findings"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "add_captions",
    "title": "Add captions",
    "description": "Caption speech in one step: the words of a transcript become caption text elements (named Caption 1, 2, ...) on a new captions track on top of the picture, one undo step. Each caption runs from its first word's start to its last word's end (at least minDuration, never into the next caption), holds at most maxLines lines of at most maxCharsPerLine characters broken at word boundaries, and ends at a sentence's end or a pause of 1 s. Give elementId (a video or audio element) or assetId; words are transcribe_video's segments' words in timeline seconds: the in-page agent fills them from transcribe_video when you leave them out, so call add_captions { elementId } alone. Edit one caption later with update_text; export_subtitles writes them as SRT, VTT or ASS.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "The video or audio element whose speech it is (from list_timeline); words outside it are left out"
        },
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "The video or audio asset whose speech it is, for every placement of it"
        },
        "words": {
          "type": "array",
          "maxItems": 100000,
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "number",
                "minimum": 0
              },
              "end": {
                "type": "number",
                "minimum": 0
              },
              "text": {
                "type": "string"
              }
            },
            "required": [
              "start",
              "end",
              "text"
            ],
            "additionalProperties": false,
            "description": "One spoken word."
          },
          "description": "The words, timeline seconds, in spoken order: transcribe_video's segments[].words. Left out, the in-page agent fills them from transcribe_video"
        },
        "maxCharsPerLine": {
          "type": "integer",
          "minimum": 1,
          "maximum": 200,
          "description": "Most characters on one line (default 42)"
        },
        "maxLines": {
          "type": "integer",
          "minimum": 1,
          "maximum": 10,
          "description": "Most lines in one caption (default 2)"
        },
        "minDuration": {
          "type": "number",
          "minimum": 0,
          "maximum": 10,
          "description": "Shortest a caption stays, seconds, unless the next one starts (default 0.8, OpenCut's)"
        },
        "style": {
          "type": "string",
          "enum": [
            "plain",
            "subtitle",
            "hook",
            "label"
          ],
          "description": "Style preset (default subtitle)"
        },
        "position": {
          "type": "string",
          "enum": [
            "top",
            "center",
            "bottom"
          ],
          "description": "Where in the frame (default bottom)"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackIds": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "The captions tracks, top first (more than one when cues overlap)"
        },
        "count": {
          "type": "integer",
          "minimum": 0,
          "description": "Captions added"
        },
        "start": {
          "type": "number",
          "description": "The first caption's start, seconds"
        },
        "end": {
          "type": "number",
          "description": "The last caption's end, seconds"
        }
      },
      "required": [
        "trackIds",
        "count",
        "start",
        "end"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "import_subtitles",
    "title": "Import subtitles",
    "description": "Add a subtitle file's cues as captions (text elements named Caption 1, 2, ...) on a new captions track on top of the picture, one undo step, each at its cue's times to the millisecond. text is the file's content; format srt (SubRip), vtt (WebVTT) or ass (Advanced SubStation Alpha: its Dialogue lines, override tags such as {\\i1} dropped, \\N a line break; its styles are not carried). Overlapping cues go on further captions tracks, so none is cut. A malformed cue fails the whole call, naming its line; nothing changes.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "text": {
          "type": "string",
          "description": "The subtitle file's text"
        },
        "format": {
          "type": "string",
          "enum": [
            "srt",
            "vtt",
            "ass"
          ],
          "description": "Its format"
        },
        "style": {
          "type": "string",
          "enum": [
            "plain",
            "subtitle",
            "hook",
            "label"
          ],
          "description": "Style preset (default subtitle)"
        },
        "position": {
          "type": "string",
          "enum": [
            "top",
            "center",
            "bottom"
          ],
          "description": "Where in the frame (default bottom)"
        }
      },
      "required": [
        "text",
        "format"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "trackIds": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "The captions tracks, top first (more than one when cues overlap)"
        },
        "count": {
          "type": "integer",
          "minimum": 0,
          "description": "Captions added"
        },
        "start": {
          "type": "number",
          "description": "The first caption's start, seconds"
        },
        "end": {
          "type": "number",
          "description": "The last caption's end, seconds"
        }
      },
      "required": [
        "trackIds",
        "count",
        "start",
        "end"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "export_subtitles",
    "title": "Export subtitles",
    "description": "Write the timeline's captions as a subtitle file: srt, vtt or ass. The captions are the text elements named Caption <n> (what add_captions and import_subtitles make, and OpenCut's own caption flow) that are shown (not hidden, nor on a hidden track), as they are now after any edit, in time order: each cue is one caption's text and times, to the millisecond (ASS holds hundredths of a second). Returns the file's text; changes nothing.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "format": {
          "type": "string",
          "enum": [
            "srt",
            "vtt",
            "ass"
          ],
          "description": "The file format"
        }
      },
      "required": [
        "format"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "format": {
          "type": "string"
        },
        "count": {
          "type": "integer",
          "minimum": 0,
          "description": "Cues written"
        },
        "text": {
          "type": "string",
          "description": "The file's text"
        }
      },
      "required": [
        "format",
        "count",
        "text"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "undo",
    "title": "Undo",
    "description": "Undo the last successful editing call (a batch counts as one). Reports which tool was undone. Use it to correct a mistake, then call list_timeline to see the state.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "undone": {
          "type": "string"
        },
        "canUndo": {
          "type": "boolean"
        },
        "canRedo": {
          "type": "boolean"
        }
      },
      "required": [
        "success",
        "undone"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "redo",
    "title": "Redo",
    "description": "Redo the last undone call. Reports which tool was redone. Any new edit after an undo clears what can be redone.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "redone": {
          "type": "string"
        },
        "canUndo": {
          "type": "boolean"
        },
        "canRedo": {
          "type": "boolean"
        }
      },
      "required": [
        "success",
        "redone"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "batch",
    "title": "Batch",
    "description": "Run several tool calls in order as one all-or-nothing step: steps is a list of {tool, args}. Later steps see the results of earlier ones. If any step fails, nothing changes and the error names the failing step's index and tool. A successful batch is one undo step. undo, redo, batch and load_asset_context cannot be steps.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "steps": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "object",
            "properties": {
              "tool": {
                "type": "string",
                "description": "Tool name"
              },
              "args": {
                "type": "object",
                "description": "That tool's arguments"
              }
            },
            "required": [
              "tool"
            ],
            "additionalProperties": false
          },
          "description": "Tool calls to run in order"
        }
      },
      "required": [
        "steps"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "success": {
          "type": "boolean"
        },
        "results": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "tool": {
                "type": "string"
              },
              "result": {
                "type": "object"
              }
            },
            "required": [
              "tool",
              "result"
            ]
          }
        }
      },
      "required": [
        "success",
        "results"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  }
];

// Host tools: answered by the JS side (registry::HOST_TOOLS), offered where they can run.

/** Arguments of the host tool `media_import`: Import media files */
export interface MediaImportArgs {
  /** Absolute paths of the files to import */
  paths: string[];
}

/** Result of the host tool `media_import`. */
export interface MediaImportResult {
  assets: {
    id: string;
    name: string;
    type: "video" | "audio" | "image";
    format: string;
    path: string;
    duration?: number;
    width?: number;
    height?: number;
    fps?: {
      numerator: number;
      denominator: number;
    };
  }[];
}

/** Arguments of the host tool `transcribe_video`: Transcribe video */
export interface TranscribeVideoArgs {
  /** Video or audio asset id from list_project_assets; optional when the timeline uses exactly one */
  assetId?: string;
  /** A video or audio element id from list_timeline instead: only what it plays, in timeline seconds (through its trim and speed) */
  elementId?: string;
  /** Spoken language as a BCP 47 tag (e.g. en, es-AR); detected when omitted */
  language?: string;
  /** Who transcribes: local (the host's transcriber, e.g. Whisper in a worker) or gemini (through the proxy); the local one when the host has it */
  provider?: "local" | "gemini";
  /** Transcription model: a Gemini model the proxy allows, or the local transcriber's model */
  modelId?: string;
}

/** Result of the host tool `transcribe_video`. */
export interface TranscribeVideoResult {
  assetId: string;
  /** The element transcribed (elementId given) */
  elementId?: string;
  provider: "gemini" | "local";
  /** timeline: seconds on the timeline, per placement; source: seconds into the asset (it is not on the timeline) */
  timeBase: "timeline" | "source";
  language?: string;
  /** The whole transcript of the asset, segment after segment */
  text: string;
  segments: {
    start: number;
    end: number;
    text: string;
    elementId?: string;
    /** Each word's times, when the transcriber gives them (words outside the element's span left out) */
    words?: {
      start: number;
      end: number;
      text: string;
    }[];
  }[];
}

/** Arguments of the host tool `detect_silences`: Detect silences */
export interface DetectSilencesArgs {
  /** Video or audio asset id from list_project_assets (source seconds); optional when the project has exactly one */
  assetId?: string;
  /** A video or audio element id from list_timeline instead (timeline seconds, through its trim and speed) */
  elementId?: string;
  /** The shortest pause to report, in seconds of the time base (default 0.5) */
  minDuration?: number;
  /** Loudness at or below which audio counts as silent, in dBFS (default -40) */
  thresholdDb?: number;
}

/** Result of the host tool `detect_silences`. */
export interface DetectSilencesResult {
  assetId: string;
  elementId?: string;
  /** timeline: seconds on the timeline (elementId given); source: seconds into the asset */
  timeBase: "timeline" | "source";
  /** Seconds of audio measured, in the time base */
  duration: number;
  silences: {
    start: number;
    end: number;
  }[];
}

/** Arguments of the host tool `detect_scenes`: Detect scene cuts */
export interface DetectScenesArgs {
  /** Video asset id from list_project_assets (source seconds); optional when the project has exactly one */
  assetId?: string;
  /** A video element id from list_timeline instead (timeline seconds, through its trim and speed) */
  elementId?: string;
  /** How different a frame must be from the one before to start a new shot, from 0 to 1 (default 0.1: a tenth of the full range per pixel on average); lower finds subtler cuts */
  threshold?: number;
}

/** Result of the host tool `detect_scenes`. */
export interface DetectScenesResult {
  assetId: string;
  elementId?: string;
  /** timeline: seconds on the timeline (elementId given); source: seconds into the asset */
  timeBase: "timeline" | "source";
  /** The video's frame rate (frames per second of the source) */
  fps: number;
  /** Seconds measured, in the time base */
  duration: number;
  /** Where each new shot starts: the time of its first frame */
  cuts: number[];
}

/** Arguments of the host tool `review_clip`: Review a clip of the timeline */
export interface ReviewClipArgs {
  /** Timeline time in seconds where the clip starts */
  start: number;
  /** Where it ends: after start, at most 30 seconds later */
  end: number;
  /** Picture width in pixels (default 320; the height keeps the project's aspect) */
  width?: number;
}

/** Result of the host tool `review_clip`. */
export interface ReviewClipResult {
  start: number;
  end: number;
  width: number;
  height: number;
  /** The uploaded file's size */
  sizeBytes: number;
  mimeType: string;
  /** Gemini's handle of the clip, attached to the next request */
  fileUri: string;
}

/** Arguments of the host tool `render_preview`: Render a preview frame */
export interface RenderPreviewArgs {
  /** Timeline time in seconds (or give times) */
  time?: number;
  /** Up to 16 timeline times in seconds: one contact sheet, the frames in a grid in this order, each labelled with its timecode */
  times?: number[];
  /** Image width in pixels, of the frame or the whole sheet (default 960; height keeps the project's aspect) */
  width?: number;
}

/** Result of the host tool `render_preview`. */
export interface RenderPreviewResult {
  /** The frame's time (time given) */
  time?: number;
  /** The sheet's times (times given) */
  times?: number[];
  width: number;
  height: number;
  canvas?: {
    width?: number;
    height?: number;
  };
  /** What the frame draws, bottom first (time given) */
  layers?: {
    elementId: string;
    kind: string;
  }[];
  notDrawn?: {
    elementId?: string;
    reason?: string;
  }[];
  /** Each sheet cell: its time, where it is on the sheet, and what it draws (times given) */
  frames?: {
    time: number;
    x: number;
    y: number;
    width: number;
    height: number;
    layers: {
      elementId: string;
      kind: string;
    }[];
    notDrawn?: {
      elementId?: string;
      reason?: string;
    }[];
  }[];
}

/** Arguments of the host tool `export_video`: Export the timeline to a video file */
export interface ExportVideoArgs {
  /** Absolute path of the file to write (.mp4 or .webm); an existing file is replaced */
  path: string;
  /** Default: from the path's extension */
  format?: "mp4" | "webm";
  /** Seconds; default 0 */
  start?: number;
  /** Seconds; default the end of the timeline */
  end?: number;
  /** Output width in pixels (default the project's); the height keeps the aspect */
  width?: number;
  /** Answer when the file is written (default false: answer with the job at once) */
  wait?: boolean;
}

/** Result of the host tool `export_video`. */
export interface ExportVideoResult {
  job: string;
  path: string;
  format: "mp4" | "webm";
  state: "running" | "done" | "failed" | "cancelled";
  framesDone?: number;
  totalFrames?: number;
  /** 0 to 1 */
  progress?: number;
  error?: string;
  /** When done: codecs, width, height, fps, frames, duration, bytes, missing */
  result?: { [key: string]: unknown };
}

/** Arguments of the host tool `jobs_list`: List export jobs */
export type JobsListArgs = Record<string, never>;

/** Result of the host tool `jobs_list`. */
export interface JobsListResult {
  jobs: {
    job: string;
    path: string;
    format: "mp4" | "webm";
    state: "running" | "done" | "failed" | "cancelled";
    framesDone: number;
    totalFrames: number;
    /** 0 to 1 */
    progress: number;
    error?: string;
    /** When done: codecs, width, height, fps, frames, duration, bytes, missing */
    result?: { [key: string]: unknown };
  }[];
}

/** Arguments of the host tool `jobs_cancel`: Cancel an export job */
export interface JobsCancelArgs {
  /** The job id from export_video or jobs_list */
  job: string;
}

/** Result of the host tool `jobs_cancel`. */
export interface JobsCancelResult {
  job: string;
  path: string;
  format: "mp4" | "webm";
  state: "running" | "done" | "failed" | "cancelled";
  framesDone: number;
  totalFrames: number;
  /** 0 to 1 */
  progress: number;
  error?: string;
  /** When done: codecs, width, height, fps, frames, duration, bytes, missing */
  result?: { [key: string]: unknown };
}

/** Arguments of the host tool `submit_plan`: Submit a plan */
export interface SubmitPlanArgs {
  /** The steps, in order: short imperative sentences */
  steps: string[];
  /** The plan in one line */
  summary?: string;
}

/** Result of the host tool `submit_plan`. */
export interface SubmitPlanResult {
  decision: "approve" | "reject" | "edit";
  /** The steps to carry out (the user's edit, when edited) */
  steps?: string[];
  /** What the user said about the plan */
  feedback?: string;
}

/** Arguments of the host tool `ask_user`: Ask the user */
export interface AskUserArgs {
  /** One short question */
  question: string;
  /** Likely answers to pick from; the user may type another */
  options?: string[];
}

/** Result of the host tool `ask_user`. */
export interface AskUserResult {
  /** The user's answer, in their words */
  answer: string;
}

/** Arguments of the host tool `list_skills`: List skills */
export type ListSkillsArgs = Record<string, never>;

/** Result of the host tool `list_skills`. */
export interface ListSkillsResult {
  skills: {
    name: string;
    description: string;
  }[];
}

/** Arguments of the host tool `load_skill`: Load a skill */
export interface LoadSkillArgs {
  /** A skill name from list_skills */
  name: string;
}

/** Result of the host tool `load_skill`. */
export interface LoadSkillResult {
  name: string;
  description?: string;
  /** The recipe, in markdown */
  body: string;
}

/** Arguments of the host tool `ui_inspect`: Inspect the editor's UI */
export type UiInspectArgs = Record<string, never>;

/** Result of the host tool `ui_inspect`. */
export interface UiInspectResult {
  /** Seconds */
  playhead?: number;
  /** Selected element ids */
  selection?: string[];
  /** Timeline pixels per second */
  zoom?: number;
  playing?: boolean;
  /** Visible panels, for ui_screenshot */
  panels?: string[];
}

/** Arguments of the host tool `ui_elements`: List on-screen elements */
export interface UiElementsArgs {
  /** Keep ids starting with this */
  prefix?: string;
}

/** Result of the host tool `ui_elements`. */
export interface UiElementsResult {
  elements: {
    /** Automation id */
    id: string;
    label: string;
    role: string;
    /** Page pixels */
    rect: {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    selected?: true;
    disabled?: true;
  }[];
}

/** Arguments of the host tool `ui_click`: Click */
export interface UiClickArgs {
  /** Automation id from ui_elements */
  id?: string;
  x?: number;
  y?: number;
  button?: "left" | "middle" | "right";
  count?: number;
  /** Keys held down */
  modifiers?: ("Ctrl" | "Shift" | "Alt" | "Cmd")[];
}

/** Result of the host tool `ui_click`. */
export interface UiClickResult {
  /** The automation id (or tag) clicked */
  clicked: string;
  x: number;
  y: number;
}

/** Arguments of the host tool `ui_drag`: Drag */
export interface UiDragArgs {
  /** An automation id from ui_elements, or {x, y} in page pixels */
  from: string | {
    x: number;
    y: number;
  };
  /** An automation id from ui_elements, or {x, y} in page pixels */
  to?: string | {
    x: number;
    y: number;
  };
  /** Pixels right (instead of to) */
  dx?: number;
  /** Pixels down (instead of to) */
  dy?: number;
  steps?: number;
  /** Keys held down */
  modifiers?: ("Ctrl" | "Shift" | "Alt" | "Cmd")[];
}

/** Result of the host tool `ui_drag`. */
export interface UiDragResult {
  /** Where the press was: x, y and the automation id under it */
  from: {
    x: number;
    y: number;
    id?: string | null;
  };
  /** Where the release was */
  to: {
    x: number;
    y: number;
  };
}

/** Arguments of the host tool `ui_key`: Press a key */
export interface UiKeyArgs {
  key: string;
}

/** Result of the host tool `ui_key`. */
export interface UiKeyResult {
  key: string;
  /** Whether the page acted on it */
  handled: boolean;
  /** The automation id (or tag) of the focused element */
  target: string;
}

/** Arguments of the host tool `ui_type`: Type text */
export interface UiTypeArgs {
  text: string;
  /** Focus this field first */
  id?: string;
}

/** Result of the host tool `ui_type`. */
export interface UiTypeResult {
  /** Characters typed */
  typed: number;
  into?: string | null;
  /** The field's value after */
  value?: string;
}

/** Arguments of the host tool `ui_screenshot`: Screenshot the page */
export interface UiScreenshotArgs {
  /** A panel name from ui_inspect, or an automation id */
  panel?: string;
}

/** Result of the host tool `ui_screenshot`. */
export interface UiScreenshotResult {
  width: number;
  height: number;
}

/** Arguments of the host tool `ui_control`: Call a control-channel method */
export interface UiControlArgs {
  method: string;
  params?: { [key: string]: unknown };
}

/** Result of the host tool `ui_control`. */
export interface UiControlResult { [key: string]: unknown }

export interface HostToolArgsMap {
  media_import: MediaImportArgs;
  transcribe_video: TranscribeVideoArgs;
  detect_silences: DetectSilencesArgs;
  detect_scenes: DetectScenesArgs;
  review_clip: ReviewClipArgs;
  render_preview: RenderPreviewArgs;
  export_video: ExportVideoArgs;
  jobs_list: JobsListArgs;
  jobs_cancel: JobsCancelArgs;
  submit_plan: SubmitPlanArgs;
  ask_user: AskUserArgs;
  list_skills: ListSkillsArgs;
  load_skill: LoadSkillArgs;
  ui_inspect: UiInspectArgs;
  ui_elements: UiElementsArgs;
  ui_click: UiClickArgs;
  ui_drag: UiDragArgs;
  ui_key: UiKeyArgs;
  ui_type: UiTypeArgs;
  ui_screenshot: UiScreenshotArgs;
  ui_control: UiControlArgs;
}

export interface HostToolResultMap {
  media_import: MediaImportResult;
  transcribe_video: TranscribeVideoResult;
  detect_silences: DetectSilencesResult;
  detect_scenes: DetectScenesResult;
  review_clip: ReviewClipResult;
  render_preview: RenderPreviewResult;
  export_video: ExportVideoResult;
  jobs_list: JobsListResult;
  jobs_cancel: JobsCancelResult;
  submit_plan: SubmitPlanResult;
  ask_user: AskUserResult;
  list_skills: ListSkillsResult;
  load_skill: LoadSkillResult;
  ui_inspect: UiInspectResult;
  ui_elements: UiElementsResult;
  ui_click: UiClickResult;
  ui_drag: UiDragResult;
  ui_key: UiKeyResult;
  ui_type: UiTypeResult;
  ui_screenshot: UiScreenshotResult;
  ui_control: UiControlResult;
}

/** The name of a host tool. */
export type HostToolName = keyof HostToolArgsMap;

/** The error messages each host tool can return (`<x>` marks a filled-in part). */
export const HOST_TOOL_ERRORS: Readonly<Record<HostToolName, readonly string[]>> = {
  media_import: ["paths must be a non-empty array of absolute file paths","Path must be absolute: <path>","File not found: <path>","Unsupported media format: <path> (supported: <formats>)","Cannot add <path>: <why>"],
  transcribe_video: ["assetId is required","Give assetId or elementId, not both","Asset not found","Element not found","Unsupported asset type","provider must be one of: local, gemini","Asset is still processing","Failed to transcribe","Cancelled by the user","<key> must be a non-empty string"],
  detect_silences: ["assetId or elementId is required","Give assetId or elementId, not both","Asset not found","Element not found","Unsupported asset type","<key> must be a non-empty string","minDuration must be a number of seconds > 0","thresholdDb must be a number from -120 to 0","Failed to decode audio","Cancelled by the user"],
  detect_scenes: ["assetId or elementId is required","Give assetId or elementId, not both","Asset not found","Element not found","Unsupported asset type","<key> must be a non-empty string","threshold must be a number above 0, at most 1","Failed to decode video","Cancelled by the user"],
  review_clip: ["start must be a number of seconds >= 0","end must be after start, at most 30 s later","width must be a whole number from 160 to 640","Nothing to review: the span is past the timeline's end","The user declined the upload","Failed to review the clip","Cancelled by the user"],
  render_preview: ["time must be a number of seconds >= 0","Give time or times, not both","times must be 1 to 16 numbers of seconds >= 0","width must be a whole number from 16 to 1920","no Chromium at <path> (set NEURALCUT_CHROMIUM ...)","render_preview failed: <why>"],
  export_video: ["path must be an absolute file path","Path must be absolute: <path>","Folder not found: <folder>","format must be \"mp4\" or \"webm\", got <format>","Cannot tell the format from <path>: name it .mp4 or .webm, or give format","<start|end> must be a number of seconds, 0 or more","end (<end>) must be after start (<start>)","width must be a whole number of pixels from 16 to 7680","wait must be a boolean","Job <job> is already exporting to <path>","<why the export failed>","The export was cancelled"],
  jobs_list: [],
  jobs_cancel: ["job must be a job id from jobs_list","Job not found: <job>","Job <job> is not running (<state>)"],
  submit_plan: ["steps must be a non-empty array of strings","summary must be a string","The user did not answer"],
  ask_user: ["question must be a non-empty string","options must be an array of strings","The user did not answer"],
  list_skills: [],
  load_skill: ["name must be a non-empty string","Skill not found: <name> (available: <names>)"],
  ui_inspect: ["<method>: this page has no UI adapter (connectBridge({ui}))","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_elements: ["prefix must be a string","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_click: ["no element <id>","element <id> is not visible","no element at (<x>, <y>)","the click target must be an automation id or {x, y}","button must be left, middle or right","count must be 1, 2 or 3","modifiers must be a list of Ctrl, Shift, Alt, Cmd","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_drag: ["no element <id>","element <id> is not visible","<from|to> must be an automation id or {x, y}","give either to or dx/dy","give to (an automation id or {x, y}) or dx/dy in pixels","steps must be a whole number from 1 to 100","modifiers must be a list of Ctrl, Shift, Alt, Cmd","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_key: ["key must be a key or shortcut such as \"Space\", \"S\", \"Ctrl+Z\", \"Shift+Delete\"","unknown modifier \"<m>\" in \"<key>\": use Ctrl, Shift, Alt or Cmd","unknown key \"<name>\" in \"<key>\": <the keys it knows>","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_type: ["text must be a string","no element <id>","element <id> is not visible","no focused text field: click one first (or pass its id)","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_screenshot: ["no panel <name>","panel must be a panel name (ui.inspect lists them) or an automation id","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
  ui_control: ["method must be a control-channel method name, e.g. ui.set","params must be a JSON object","unknown method <method>: <the methods>","<the method's own errors>","no page is connected to the control channel: open the editor with the bridge on (npm run demo -- --control PORT)","the page did not answer <method> within <n> s"],
};

/** A host tool's catalog entry; `untrustedContentHint` marks output that carries text made by users or models. */
export interface HostToolInfo extends Omit<ToolInfo, "name" | "annotations"> {
  name: HostToolName;
  annotations: ToolInfo["annotations"] & { untrustedContentHint?: true };
}

/** Every host tool's catalog entry, in order. */
export const HOST_TOOL_CATALOG: readonly HostToolInfo[] = [
  {
    "name": "media_import",
    "title": "Import media files",
    "description": "Add media files to the project's assets by absolute path. Name, type (video, audio, image), duration, size and frame rate come from the file's headers, without decoding it. Supported: MP4/MOV/M4A, WebM/MKV, Ogg, WAV, MP3, AAC, FLAC; PNG, JPEG, GIF, WebP, AVIF, BMP, SVG. All or nothing: if one path cannot be read, nothing is added and the error names it. Then place the new assets with add_media_to_timeline.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "paths": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string"
          },
          "description": "Absolute paths of the files to import"
        }
      },
      "required": [
        "paths"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assets": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "string"
              },
              "name": {
                "type": "string"
              },
              "type": {
                "type": "string",
                "enum": [
                  "video",
                  "audio",
                  "image"
                ]
              },
              "format": {
                "type": "string"
              },
              "path": {
                "type": "string"
              },
              "duration": {
                "type": "number"
              },
              "width": {
                "type": "integer"
              },
              "height": {
                "type": "integer"
              },
              "fps": {
                "type": "object",
                "properties": {
                  "numerator": {
                    "type": "integer"
                  },
                  "denominator": {
                    "type": "integer"
                  }
                },
                "required": [
                  "numerator",
                  "denominator"
                ]
              }
            },
            "required": [
              "id",
              "name",
              "type",
              "format",
              "path"
            ]
          }
        }
      },
      "required": [
        "assets"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "transcribe_video",
    "title": "Transcribe video",
    "description": "Transcribe the speech of a video or audio asset into timed segments { start, end, text, words? }, words with their own times when the transcriber gives them (Gemini is asked for them). Times are timeline seconds for each placement of the asset (with its elementId), or for one element with elementId (only what it plays, through its trim and speed), or source seconds when the asset is not on the timeline. Edits nothing: to caption the speech, call add_captions with the same elementId or assetId. Secondary to load_asset_context for understanding content.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "Video or audio asset id from list_project_assets; optional when the timeline uses exactly one"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "A video or audio element id from list_timeline instead: only what it plays, in timeline seconds (through its trim and speed)"
        },
        "language": {
          "type": "string",
          "minLength": 1,
          "description": "Spoken language as a BCP 47 tag (e.g. en, es-AR); detected when omitted"
        },
        "provider": {
          "type": "string",
          "enum": [
            "local",
            "gemini"
          ],
          "description": "Who transcribes: local (the host's transcriber, e.g. Whisper in a worker) or gemini (through the proxy); the local one when the host has it"
        },
        "modelId": {
          "type": "string",
          "minLength": 1,
          "description": "Transcription model: a Gemini model the proxy allows, or the local transcriber's model"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string"
        },
        "elementId": {
          "type": "string",
          "description": "The element transcribed (elementId given)"
        },
        "provider": {
          "type": "string",
          "enum": [
            "gemini",
            "local"
          ]
        },
        "timeBase": {
          "type": "string",
          "enum": [
            "timeline",
            "source"
          ],
          "description": "timeline: seconds on the timeline, per placement; source: seconds into the asset (it is not on the timeline)"
        },
        "language": {
          "type": "string"
        },
        "text": {
          "type": "string",
          "description": "The whole transcript of the asset, segment after segment"
        },
        "segments": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              },
              "text": {
                "type": "string"
              },
              "elementId": {
                "type": "string"
              },
              "words": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "start": {
                      "type": "number"
                    },
                    "end": {
                      "type": "number"
                    },
                    "text": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "start",
                    "end",
                    "text"
                  ]
                },
                "description": "Each word's times, when the transcriber gives them (words outside the element's span left out)"
              }
            },
            "required": [
              "start",
              "end",
              "text"
            ]
          }
        }
      },
      "required": [
        "assetId",
        "provider",
        "timeBase",
        "text",
        "segments"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": true,
      "untrustedContentHint": true
    }
  },
  {
    "name": "detect_silences",
    "title": "Detect silences",
    "description": "Find the pauses in a video or audio asset's sound, measured from its decoded audio (every channel's loudness in 10 ms windows, at or below thresholdDb for at least minDuration seconds). Give assetId for source seconds, or elementId for timeline seconds (the part the element plays, through its trim and speed). Edits nothing: to remove the pauses, pass them to cut_ranges.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "Video or audio asset id from list_project_assets (source seconds); optional when the project has exactly one"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "A video or audio element id from list_timeline instead (timeline seconds, through its trim and speed)"
        },
        "minDuration": {
          "type": "number",
          "exclusiveMinimum": 0,
          "description": "The shortest pause to report, in seconds of the time base (default 0.5)"
        },
        "thresholdDb": {
          "type": "number",
          "minimum": -120,
          "maximum": 0,
          "description": "Loudness at or below which audio counts as silent, in dBFS (default -40)"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string"
        },
        "elementId": {
          "type": "string"
        },
        "timeBase": {
          "type": "string",
          "enum": [
            "timeline",
            "source"
          ],
          "description": "timeline: seconds on the timeline (elementId given); source: seconds into the asset"
        },
        "duration": {
          "type": "number",
          "description": "Seconds of audio measured, in the time base"
        },
        "silences": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "start": {
                "type": "number"
              },
              "end": {
                "type": "number"
              }
            },
            "required": [
              "start",
              "end"
            ]
          }
        }
      },
      "required": [
        "assetId",
        "timeBase",
        "duration",
        "silences"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "detect_scenes",
    "title": "Detect scene cuts",
    "description": "Find the hard cuts in a video asset, measured from its decoded frames: a cut is a frame that differs from the one before by at least threshold and far more than the frames before it did, so fades, pans and motion inside a shot are not cuts. Give assetId for source seconds, or elementId for timeline seconds (the part the element plays, through its trim and speed). Each cut is the time of the new shot's first frame. Edits nothing: to cut there, call split.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string",
          "minLength": 1,
          "description": "Video asset id from list_project_assets (source seconds); optional when the project has exactly one"
        },
        "elementId": {
          "type": "string",
          "minLength": 1,
          "description": "A video element id from list_timeline instead (timeline seconds, through its trim and speed)"
        },
        "threshold": {
          "type": "number",
          "exclusiveMinimum": 0,
          "maximum": 1,
          "description": "How different a frame must be from the one before to start a new shot, from 0 to 1 (default 0.1: a tenth of the full range per pixel on average); lower finds subtler cuts"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "assetId": {
          "type": "string"
        },
        "elementId": {
          "type": "string"
        },
        "timeBase": {
          "type": "string",
          "enum": [
            "timeline",
            "source"
          ],
          "description": "timeline: seconds on the timeline (elementId given); source: seconds into the asset"
        },
        "fps": {
          "type": "number",
          "description": "The video's frame rate (frames per second of the source)"
        },
        "duration": {
          "type": "number",
          "description": "Seconds measured, in the time base"
        },
        "cuts": {
          "type": "array",
          "items": {
            "type": "number"
          },
          "description": "Where each new shot starts: the time of its first frame"
        }
      },
      "required": [
        "assetId",
        "timeBase",
        "fps",
        "duration",
        "cuts"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "review_clip",
    "title": "Review a clip of the timeline",
    "description": "Render a span of the timeline (at most 30 s) as a small video with its sound and upload it to Gemini (asking the user first, as any upload), so you can watch the motion and hear the mix of what you edited. The clip is attached to your next turn. Read-only. Use render_preview for a still or a contact sheet; this for timing, motion and sound.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "Timeline time in seconds where the clip starts"
        },
        "end": {
          "type": "number",
          "exclusiveMinimum": 0,
          "description": "Where it ends: after start, at most 30 seconds later"
        },
        "width": {
          "type": "integer",
          "minimum": 160,
          "maximum": 640,
          "description": "Picture width in pixels (default 320; the height keeps the project's aspect)"
        }
      },
      "required": [
        "start",
        "end"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "start": {
          "type": "number"
        },
        "end": {
          "type": "number"
        },
        "width": {
          "type": "integer"
        },
        "height": {
          "type": "integer"
        },
        "sizeBytes": {
          "type": "integer",
          "description": "The uploaded file's size"
        },
        "mimeType": {
          "type": "string"
        },
        "fileUri": {
          "type": "string",
          "description": "Gemini's handle of the clip, attached to the next request"
        }
      },
      "required": [
        "start",
        "end",
        "width",
        "height",
        "sizeBytes",
        "mimeType",
        "fileUri"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": true
    }
  },
  {
    "name": "render_preview",
    "title": "Render a preview frame",
    "description": "Render the picture at a time (timeline seconds) and return it as a PNG image, with a short JSON description of what was drawn (layers bottom first, anything that could not be drawn). With times (up to 16) instead, return one contact sheet: the frames in a grid, each labelled with its timecode, and where each sits on the sheet. Read-only. Use it after an edit to check the result (a sheet to see a whole sequence at once); undo if it looks wrong.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "time": {
          "type": "number",
          "minimum": 0,
          "description": "Timeline time in seconds (or give times)"
        },
        "times": {
          "type": "array",
          "maxItems": 16,
          "items": {
            "type": "number",
            "minimum": 0
          },
          "minItems": 1,
          "description": "Up to 16 timeline times in seconds: one contact sheet, the frames in a grid in this order, each labelled with its timecode"
        },
        "width": {
          "type": "integer",
          "minimum": 16,
          "maximum": 1920,
          "description": "Image width in pixels, of the frame or the whole sheet (default 960; height keeps the project's aspect)"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "time": {
          "type": "number",
          "description": "The frame's time (time given)"
        },
        "times": {
          "type": "array",
          "items": {
            "type": "number"
          },
          "description": "The sheet's times (times given)"
        },
        "width": {
          "type": "integer"
        },
        "height": {
          "type": "integer"
        },
        "canvas": {
          "type": "object",
          "properties": {
            "width": {
              "type": "integer"
            },
            "height": {
              "type": "integer"
            }
          }
        },
        "layers": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "kind": {
                "type": "string"
              }
            },
            "required": [
              "elementId",
              "kind"
            ]
          },
          "description": "What the frame draws, bottom first (time given)"
        },
        "notDrawn": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "elementId": {
                "type": "string"
              },
              "reason": {
                "type": "string"
              }
            }
          }
        },
        "frames": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "time": {
                "type": "number"
              },
              "x": {
                "type": "integer"
              },
              "y": {
                "type": "integer"
              },
              "width": {
                "type": "integer"
              },
              "height": {
                "type": "integer"
              },
              "layers": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "elementId": {
                      "type": "string"
                    },
                    "kind": {
                      "type": "string"
                    }
                  },
                  "required": [
                    "elementId",
                    "kind"
                  ]
                }
              },
              "notDrawn": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "elementId": {
                      "type": "string"
                    },
                    "reason": {
                      "type": "string"
                    }
                  }
                }
              }
            },
            "required": [
              "time",
              "x",
              "y",
              "width",
              "height",
              "layers"
            ]
          },
          "description": "Each sheet cell: its time, where it is on the sheet, and what it draws (times given)"
        }
      },
      "required": [
        "width",
        "height"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false,
      "untrustedContentHint": true
    }
  },
  {
    "name": "export_video",
    "title": "Export the timeline to a video file",
    "description": "Render the timeline to a video file at an absolute path: mp4 (H.264; AAC or Opus audio) or webm (VP9, AV1 or VP8; Opus), at the project's size and frame rate, with the timeline's sound mixed in (volumes, trims, speed, muted tracks and clips). format defaults to the file's extension; start and end (seconds) export part of the timeline. With wait true the call answers when the file is written (send a progressToken to get progress notifications; cancelling the request deletes the partial file); without wait it answers {job, path} at once: follow it with jobs_list, stop it with jobs_cancel. The file appears at path only when complete.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "path": {
          "type": "string",
          "description": "Absolute path of the file to write (.mp4 or .webm); an existing file is replaced"
        },
        "format": {
          "type": "string",
          "enum": [
            "mp4",
            "webm"
          ],
          "description": "Default: from the path's extension"
        },
        "start": {
          "type": "number",
          "minimum": 0,
          "description": "Seconds; default 0"
        },
        "end": {
          "type": "number",
          "minimum": 0,
          "description": "Seconds; default the end of the timeline"
        },
        "width": {
          "type": "integer",
          "minimum": 16,
          "maximum": 7680,
          "description": "Output width in pixels (default the project's); the height keeps the aspect"
        },
        "wait": {
          "type": "boolean",
          "description": "Answer when the file is written (default false: answer with the job at once)"
        }
      },
      "required": [
        "path"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "job": {
          "type": "string"
        },
        "path": {
          "type": "string"
        },
        "format": {
          "type": "string",
          "enum": [
            "mp4",
            "webm"
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "done",
            "failed",
            "cancelled"
          ]
        },
        "framesDone": {
          "type": "integer"
        },
        "totalFrames": {
          "type": "integer"
        },
        "progress": {
          "type": "number",
          "description": "0 to 1"
        },
        "error": {
          "type": "string"
        },
        "result": {
          "type": "object",
          "description": "When done: codecs, width, height, fps, frames, duration, bytes, missing"
        }
      },
      "required": [
        "job",
        "path",
        "format",
        "state"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "jobs_list",
    "title": "List export jobs",
    "description": "The session's export jobs, oldest first: state (running, done, failed, cancelled), frames done of the total, and the result or error once finished. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "jobs": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "job": {
                "type": "string"
              },
              "path": {
                "type": "string"
              },
              "format": {
                "type": "string",
                "enum": [
                  "mp4",
                  "webm"
                ]
              },
              "state": {
                "type": "string",
                "enum": [
                  "running",
                  "done",
                  "failed",
                  "cancelled"
                ]
              },
              "framesDone": {
                "type": "integer"
              },
              "totalFrames": {
                "type": "integer"
              },
              "progress": {
                "type": "number",
                "description": "0 to 1"
              },
              "error": {
                "type": "string"
              },
              "result": {
                "type": "object",
                "description": "When done: codecs, width, height, fps, frames, duration, bytes, missing"
              }
            },
            "required": [
              "job",
              "path",
              "format",
              "state",
              "framesDone",
              "totalFrames",
              "progress"
            ]
          }
        }
      },
      "required": [
        "jobs"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "jobs_cancel",
    "title": "Cancel an export job",
    "description": "Stop a running export job; its partial file is deleted. Answers when it has stopped.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "job": {
          "type": "string",
          "description": "The job id from export_video or jobs_list"
        }
      },
      "required": [
        "job"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "job": {
          "type": "string"
        },
        "path": {
          "type": "string"
        },
        "format": {
          "type": "string",
          "enum": [
            "mp4",
            "webm"
          ]
        },
        "state": {
          "type": "string",
          "enum": [
            "running",
            "done",
            "failed",
            "cancelled"
          ]
        },
        "framesDone": {
          "type": "integer"
        },
        "totalFrames": {
          "type": "integer"
        },
        "progress": {
          "type": "number",
          "description": "0 to 1"
        },
        "error": {
          "type": "string"
        },
        "result": {
          "type": "object",
          "description": "When done: codecs, width, height, fps, frames, duration, bytes, missing"
        }
      },
      "required": [
        "job",
        "path",
        "format",
        "state",
        "framesDone",
        "totalFrames",
        "progress"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "submit_plan",
    "title": "Submit a plan",
    "description": "Before a larger or riskier change (several edits, deleting content), show the user your plan and wait: steps are short imperative sentences in order, summary one line. The answer says whether the user approved it (then carry it out), edited it (carry out the steps they returned) or rejected it (do not edit; read their feedback and answer them). Changes nothing itself.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "steps": {
          "type": "array",
          "minItems": 1,
          "items": {
            "type": "string"
          },
          "description": "The steps, in order: short imperative sentences"
        },
        "summary": {
          "type": "string",
          "description": "The plan in one line"
        }
      },
      "required": [
        "steps"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "decision": {
          "type": "string",
          "enum": [
            "approve",
            "reject",
            "edit"
          ]
        },
        "steps": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "The steps to carry out (the user's edit, when edited)"
        },
        "feedback": {
          "type": "string",
          "description": "What the user said about the plan"
        }
      },
      "required": [
        "decision"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "ask_user",
    "title": "Ask the user",
    "description": "Ask the user one short question and wait for the answer, when the request is ambiguous and a wrong guess would waste their time (which clip, what wording, how long). Give options when there are a few obvious answers; the user may still type another. Changes nothing.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "question": {
          "type": "string",
          "minLength": 1,
          "description": "One short question"
        },
        "options": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Likely answers to pick from; the user may type another"
        }
      },
      "required": [
        "question"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "answer": {
          "type": "string",
          "description": "The user's answer, in their words"
        }
      },
      "required": [
        "answer"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "list_skills",
    "title": "List skills",
    "description": "List the editing recipes (skills) available here, with a one-line description each: captions from a transcript, removing silences, cutting at scene changes, speed, vertical shorts, talking-head edits, b-roll, masks, text styling, the canvas background, shapes, and any the app adds. Load one with load_skill before a task it covers.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "skills": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "description": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "description"
            ]
          }
        }
      },
      "required": [
        "skills"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "load_skill",
    "title": "Load a skill",
    "description": "Load one skill by name (from list_skills): a step-by-step recipe naming the tools and arguments to use. Follow it for the task it covers.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "name": {
          "type": "string",
          "minLength": 1,
          "description": "A skill name from list_skills"
        }
      },
      "required": [
        "name"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "name": {
          "type": "string"
        },
        "description": {
          "type": "string"
        },
        "body": {
          "type": "string",
          "description": "The recipe, in markdown"
        }
      },
      "required": [
        "name",
        "body"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_inspect",
    "title": "Inspect the editor's UI",
    "description": "The UI state of the page the user has open: playhead (seconds), selection (element ids), zoom (pixels per second), playing, visible panels. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "playhead": {
          "type": "number",
          "description": "Seconds"
        },
        "selection": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Selected element ids"
        },
        "zoom": {
          "type": "number",
          "description": "Timeline pixels per second"
        },
        "playing": {
          "type": "boolean"
        },
        "panels": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "description": "Visible panels, for ui_screenshot"
        }
      },
      "required": []
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_elements",
    "title": "List on-screen elements",
    "description": "Every visible interactive element with its automation id, label, role and rectangle (page pixels); prefix keeps the ids that start with it (e.g. \"timeline.\"). Use the ids with ui_click and ui_drag. Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "prefix": {
          "type": "string",
          "description": "Keep ids starting with this"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "elements": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "id": {
                "type": "string",
                "description": "Automation id"
              },
              "label": {
                "type": "string"
              },
              "role": {
                "type": "string"
              },
              "rect": {
                "type": "object",
                "properties": {
                  "x": {
                    "type": "number"
                  },
                  "y": {
                    "type": "number"
                  },
                  "width": {
                    "type": "number"
                  },
                  "height": {
                    "type": "number"
                  }
                },
                "required": [
                  "x",
                  "y",
                  "width",
                  "height"
                ],
                "description": "Page pixels"
              },
              "selected": {
                "const": true
              },
              "disabled": {
                "const": true
              }
            },
            "required": [
              "id",
              "label",
              "role",
              "rect"
            ]
          }
        }
      },
      "required": [
        "elements"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false,
      "untrustedContentHint": true
    }
  },
  {
    "name": "ui_click",
    "title": "Click",
    "description": "Click an element by automation id, or a point {x, y}, as a user would: press, release, click (count 2: double click). Clicking a timeline element selects it.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "id": {
          "type": "string",
          "description": "Automation id from ui_elements"
        },
        "x": {
          "type": "number"
        },
        "y": {
          "type": "number"
        },
        "button": {
          "type": "string",
          "enum": [
            "left",
            "middle",
            "right"
          ]
        },
        "count": {
          "type": "integer",
          "minimum": 1,
          "maximum": 3
        },
        "modifiers": {
          "type": "array",
          "items": {
            "type": "string",
            "enum": [
              "Ctrl",
              "Shift",
              "Alt",
              "Cmd"
            ]
          },
          "description": "Keys held down"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "clicked": {
          "type": "string",
          "description": "The automation id (or tag) clicked"
        },
        "x": {
          "type": "number"
        },
        "y": {
          "type": "number"
        }
      },
      "required": [
        "clicked",
        "x",
        "y"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_drag",
    "title": "Drag",
    "description": "Press on from, move to to (or by dx, dy pixels) in steps, release: moves timeline elements, trims their edges (the .trim-start / .trim-end handles), drags the playhead. ui_inspect's zoom gives pixels per second.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "from": {
          "type": [
            "string",
            "object"
          ],
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            }
          },
          "required": [
            "x",
            "y"
          ],
          "additionalProperties": false,
          "description": "An automation id from ui_elements, or {x, y} in page pixels"
        },
        "to": {
          "type": [
            "string",
            "object"
          ],
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            }
          },
          "required": [
            "x",
            "y"
          ],
          "additionalProperties": false,
          "description": "An automation id from ui_elements, or {x, y} in page pixels"
        },
        "dx": {
          "type": "number",
          "description": "Pixels right (instead of to)"
        },
        "dy": {
          "type": "number",
          "description": "Pixels down (instead of to)"
        },
        "steps": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100
        },
        "modifiers": {
          "type": "array",
          "items": {
            "type": "string",
            "enum": [
              "Ctrl",
              "Shift",
              "Alt",
              "Cmd"
            ]
          },
          "description": "Keys held down"
        }
      },
      "required": [
        "from"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "from": {
          "type": "object",
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            },
            "id": {
              "type": [
                "string",
                "null"
              ]
            }
          },
          "required": [
            "x",
            "y"
          ],
          "description": "Where the press was: x, y and the automation id under it"
        },
        "to": {
          "type": "object",
          "properties": {
            "x": {
              "type": "number"
            },
            "y": {
              "type": "number"
            }
          },
          "required": [
            "x",
            "y"
          ],
          "description": "Where the release was"
        }
      },
      "required": [
        "from",
        "to"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_key",
    "title": "Press a key",
    "description": "A key or shortcut sent to the focused element: \"Space\" (play/pause), \"S\" (split at the playhead), \"Delete\", \"Ctrl+Z\", \"Ctrl+Shift+Z\", \"Shift+Delete\".",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "key": {
          "type": "string"
        }
      },
      "required": [
        "key"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "key": {
          "type": "string"
        },
        "handled": {
          "type": "boolean",
          "description": "Whether the page acted on it"
        },
        "target": {
          "type": "string",
          "description": "The automation id (or tag) of the focused element"
        }
      },
      "required": [
        "key",
        "handled",
        "target"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_type",
    "title": "Type text",
    "description": "Type text into the focused field (or the field with automation id id).",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "text": {
          "type": "string"
        },
        "id": {
          "type": "string",
          "description": "Focus this field first"
        }
      },
      "required": [
        "text"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "typed": {
          "type": "integer",
          "description": "Characters typed"
        },
        "into": {
          "type": [
            "string",
            "null"
          ]
        },
        "value": {
          "type": "string",
          "description": "The field's value after"
        }
      },
      "required": [
        "typed"
      ]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_screenshot",
    "title": "Screenshot the page",
    "description": "A PNG of the page as the user sees it, or of one panel (preview, timeline, tools, agent). Reads only.",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "panel": {
          "type": "string",
          "description": "A panel name from ui_inspect, or an automation id"
        }
      },
      "required": [],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "width": {
          "type": "integer"
        },
        "height": {
          "type": "integer"
        }
      },
      "required": [
        "width",
        "height"
      ]
    },
    "annotations": {
      "readOnlyHint": true,
      "destructiveHint": false,
      "idempotentHint": true,
      "openWorldHint": false
    }
  },
  {
    "name": "ui_control",
    "title": "Call a control-channel method",
    "description": "Any control-channel method with its params, e.g. ui.set {playhead: 2}, engine.inspect, engine.undo (docs/bridge.md lists them).",
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {
        "method": {
          "type": "string"
        },
        "params": {
          "type": "object"
        }
      },
      "required": [
        "method"
      ],
      "additionalProperties": false
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "properties": {},
      "required": []
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  }
];

/** A one-line summary template per tool, engine and host (registry `summary`): `{arg}`, `{arg:time}` (mm:ss.cc),
 * `{arg:q}` (quoted), `{arg:n noun}` (count and noun), `[...]` left out when an argument in it is missing.
 * `summarizeCall` in `neuralcut/agent` renders them. */
export const TOOL_SUMMARIES: Readonly<Record<ToolName | HostToolName, string>> = {
  list_project_assets: "List project assets[ ({type})]",
  list_timeline: "List the timeline",
  load_asset_context: "Watch asset {assetId}",
  split: "Split at {times:time}",
  delete_timeline_elements: "Delete {elementIds:n element}",
  cut_ranges: "Cut out {ranges:n range}",
  move_timeline_elements: "Move {elementIds:n element} to {start:time}[ on track {targetTrackId}]",
  add_text: "Add text {text:q} at {start:time}",
  update_text: "Edit text {elementId}[ to {text:q}]",
  add_media_to_timeline: "Add {assetId} to the {trackType} track at {startTime:time}",
  update_timeline_element_timing: "Retime {elementId}[ from {start:time}][ to {end:time}][ for {duration:time}]",
  delete_element: "Delete element {elementId}",
  set_volume: "Set the volume of {elementId} to {volume}",
  list_stickers: "Find stickers[ for {query:q}]",
  add_sticker: "Add sticker {stickerId} at {start:time}",
  add_graphic: "Add a {shape} at {start:time}",
  list_effects: "List effects[ for {query:q}]",
  get_effect: "Look up effect {effectType}",
  apply_effect: "Apply {effectType} from {start:time} to {end:time}",
  update_effect: "Change effect {elementId}",
  get_element: "Inspect {elementId}",
  update_clip: "Change {elementIds:n clip}",
  update_project: "Set the canvas background",
  duplicate_elements: "Duplicate {elementIds:n element}",
  update_track: "Change track {trackId}",
  move_track: "Move track {trackId}",
  list_animatable_properties: "List what {elementId} can animate",
  list_keyframes: "List keyframes of {elementId}",
  upsert_keyframe: "Set a {property} keyframe at {time:time}",
  remove_keyframe: "Remove a {property} keyframe[ at {time:time}]",
  update_keyframe_curve: "Change the {property} curve[ at {time:time}]",
  check_timeline: "Check the timeline[ from {start:time}][ to {end:time}]",
  add_captions: "Caption[ {elementId}][ {assetId}]",
  import_subtitles: "Import {format} subtitles",
  export_subtitles: "Export {format} subtitles",
  undo: "Undo",
  redo: "Redo",
  batch: "Run {steps:n step}",
  media_import: "Import {paths:n file}",
  transcribe_video: "Transcribe[ {assetId}]",
  detect_silences: "Find silences[ in {elementId}][ in {assetId}]",
  detect_scenes: "Find scene cuts[ in {elementId}][ in {assetId}]",
  review_clip: "Review {start:time} to {end:time} as a clip",
  render_preview: "Preview[ the frame at {time:time}][ {times:n frame} as a contact sheet]",
  export_video: "Export to {path}",
  jobs_list: "List export jobs",
  jobs_cancel: "Cancel export {job}",
  submit_plan: "Plan {steps:n step}",
  ask_user: "Ask {question:q}",
  list_skills: "List skills",
  load_skill: "Load the {name:q} skill",
  ui_inspect: "Look at the editor's state",
  ui_elements: "List on-screen controls[ under {prefix:q}]",
  ui_click: "Click[ {id}]",
  ui_drag: "Drag in the page",
  ui_key: "Press {key}",
  ui_type: "Type {text:q}",
  ui_screenshot: "Screenshot[ of {panel}]",
  ui_control: "Run {method} in the page",
};

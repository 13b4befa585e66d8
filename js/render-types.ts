// The frame as data (`editor.frameAt`): the JSON shape of src/frame.rs, layers bottom first.

/** The transform params at the frame's time, before any fit. */
export interface FrameTransform {
  x: number;
  y: number;
  scaleX: number;
  scaleY: number;
  /** Degrees, clockwise. */
  rotation: number;
}

/** Where a quad lands: centre and size in canvas pixels (OpenCut's contain fit × scale). */
export interface FramePlacement {
  centerX: number;
  centerY: number;
  width: number;
  height: number;
  rotation: number;
  flipX: boolean;
  flipY: boolean;
}

export interface FrameClipEffect {
  effectType: string;
  params: Record<string, number>;
}

export type BlendMode =
  | "normal" | "darken" | "multiply" | "color-burn" | "lighten" | "screen" | "plus-lighter" | "color-dodge" | "overlay"
  | "soft-light" | "hard-light" | "difference" | "exclusion" | "hue" | "saturation" | "color" | "luminosity";

export interface MediaFrameLayer {
  kind: "media";
  elementId: string;
  trackId: string;
  mediaType: "video" | "image" | "sticker" | "graphic";
  assetId?: string;
  stickerId?: string;
  /** A graphic's fill colour. */
  fill?: string;
  url?: string;
  /** Video: the source time to show, seconds (trim and retime applied). */
  sourceTime?: number;
  sourceTick?: number;
  sourceWidth?: number;
  sourceHeight?: number;
  transform: FrameTransform;
  /** Absent when the project does not know the source's size: fit it the same way once loaded. */
  placement?: FramePlacement;
  opacity: number;
  blendMode: BlendMode;
  effects: FrameClipEffect[];
}

export interface FrameTextBackground {
  color: string;
  paddingX: number;
  paddingY: number;
  offsetX: number;
  offsetY: number;
  cornerRadius: number;
}

export interface TextFrameLayer {
  kind: "text";
  elementId: string;
  trackId: string;
  content: string;
  fontFamily: string;
  /** Canvas pixels. */
  fontSize: number;
  fontWeight: string;
  fontStyle: string;
  color: string;
  textAlign: "left" | "center" | "right" | (string & {});
  textDecoration: string;
  letterSpacing: number;
  lineHeight: number;
  background?: FrameTextBackground;
  anchorX: number;
  anchorY: number;
  transform: FrameTransform;
  opacity: number;
  blendMode: BlendMode;
  effects: FrameClipEffect[];
}

export interface EffectFrameLayer {
  kind: "effect";
  elementId: string;
  trackId: string;
  effectType: string;
  params: Record<string, number>;
  /** Indices in `layers` of the layers it acts on (all below it). */
  covers: number[];
}

export type FrameLayer = MediaFrameLayer | TextFrameLayer | EffectFrameLayer;

export interface Frame {
  time: number;
  tick: number;
  width: number;
  height: number;
  background: string;
  layers: FrameLayer[];
  /** Visible now but not drawn, and why. */
  skipped: { elementId: string; reason: string }[];
}

/** One clip heard over a span (`editor.audioPlan`). Times in seconds. */
export interface AudioPlanClip {
  elementId: string;
  trackId: string;
  assetId: string;
  /** The whole clip on the timeline. */
  start: number;
  end: number;
  /** Source seconds at the clip's start (trimStart). */
  sourceStart: number;
  /** Source seconds per timeline second (retime rate, 1 without). */
  rate: number;
  /** Linear gain at `gainsFrom + i * step`; one entry when the volume is not animated. */
  gains: number[];
  gainsFrom: number;
}

/** What is heard over `[from, to)` (`editor.audioPlan`). */
export interface AudioPlan {
  from: number;
  to: number;
  step: number;
  clips: AudioPlanClip[];
}

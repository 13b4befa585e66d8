// check_timeline's `black` and `frozen`, judged from rendered frames (the engine sees only the
// timeline): the host's renderer draws the timeline small at a fixed step, and runs of samples
// that are black while something is placed, or that show a playing video whose picture does not
// change, become findings. A gap with nothing placed is the engine's `gap`, not `black`.
import type { Frame } from "../generated/tools.js";
import type { Finding } from "./index.js";

/** What the check needs of a renderer (`neuralcut/render`'s `createFrameRenderer` makes one). */
export interface CheckRenderer {
  render(seconds: number, options?: { width?: number }): Promise<{ frame: Frame; width: number; height: number }>;
  readPixels(): Promise<Uint8ClampedArray>;
}

/** The width frames are drawn at: enough to tell black or still from a picture, cheap to draw. */
export const SAMPLE_WIDTH = 64;
/** Seconds between samples, and the most samples per check (longer timelines get a wider step). */
export const SAMPLE_STEP = 0.25;
export const MAX_SAMPLES = 240;
/** The shortest black and frozen stretches reported, in seconds. */
export const MIN_BLACK = 1;
export const MIN_FROZEN = 2;
/** A pixel is dark below this luma (of 255: 16 is video black); a frame is black when at least
 * BLACK_SHARE of its pixels are dark. */
const DARK_LUMA = 16;
const BLACK_SHARE = 0.98;

const round = (s: number) => Math.round(s * 1000) / 1000;

interface Sample {
  time: number;
  /** A picture (video, image, sticker, graphic) is placed at this time. */
  placed: boolean;
  black: boolean;
  /** The videos on screen and the source time each shows. */
  videos: Map<string, number>;
  pixels: Uint8ClampedArray;
}

function isBlack(p: Uint8ClampedArray): boolean {
  let dark = 0;
  for (let i = 0; i < p.length; i += 4) if (0.2126 * p[i] + 0.7152 * p[i + 1] + 0.0722 * p[i + 2] < DARK_LUMA) dark++;
  return dark >= BLACK_SHARE * (p.length / 4);
}

/** Two samples differ by less than this mean per channel (of 255) at the sample width: an
 * encoder refining a held frame moves it by 0.05 at most (measured on VP8), a moving picture by
 * more than 10. */
const STILL_DIFFERENCE = 0.25;

/** Two samples show the same picture. */
function samePicture(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  if (a.length !== b.length) return false;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum < STILL_DIFFERENCE * a.length;
}

/** A video plays on between two samples: on screen in both, its source time moving. */
function videoPlays(a: Sample, b: Sample): string | undefined {
  for (const [id, t] of b.videos) {
    const before = a.videos.get(id);
    if (before !== undefined && t > before) return id;
  }
  return undefined;
}

/** Runs of consecutive samples for which `keep(i)` holds, as [first, last] indices. */
function runs(n: number, keep: (i: number) => boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; ) {
    if (!keep(i)) {
      i++;
      continue;
    }
    const first = i;
    while (i + 1 < n && keep(i + 1)) i++;
    out.push([first, i]);
    i++;
  }
  return out;
}

/**
 * The black and frozen stretches of the timeline from 0 to `end` seconds. A sample stands for
 * the step after it, so a stretch is known to within one step (SAMPLE_STEP, or wider past
 * MAX_SAMPLES). A shot that truly never changes (a generated still) reads as frozen: its picture
 * does not move while the video plays.
 */
export async function pictureFindings(renderer: CheckRenderer, end: number): Promise<Finding[]> {
  if (!(end > 0)) return [];
  const step = Math.max(SAMPLE_STEP, end / MAX_SAMPLES);
  const samples: Sample[] = [];
  for (let t = 0; t < end - 1e-9; t += step) {
    const time = round(t);
    const { frame } = await renderer.render(time, { width: SAMPLE_WIDTH });
    const pixels = await renderer.readPixels();
    const videos = new Map<string, number>();
    for (const l of frame.layers) if (l.kind === "media" && l.mediaType === "video" && l.sourceTime !== undefined) videos.set(l.elementId, l.sourceTime);
    // A title alone over the empty canvas is a title card, not a black picture.
    samples.push({ time, placed: frame.layers.some((l) => l.kind === "media"), black: isBlack(pixels), videos, pixels: pixels.slice() });
  }
  const until = (i: number) => round(Math.min(end, samples[i].time + step));
  const findings: Finding[] = [];
  for (const [a, b] of runs(samples.length, (i) => samples[i].placed && samples[i].black)) {
    const [start, stop] = [samples[a].time, until(b)];
    if (stop - start < MIN_BLACK - 1e-9) continue;
    const ids = [...new Set(samples.slice(a, b + 1).flatMap((s) => [...s.videos.keys()]))];
    findings.push({
      kind: "black",
      start,
      end: stop,
      ...(ids.length ? { elementIds: ids } : {}),
      message: `The picture is black from ${start} s to ${stop} s although elements are placed there (a black or missing picture, opacity 0, or an effect that darkens it). Fix it if it is not meant.`,
    });
  }
  // Sample i is frozen when it shows the same picture as sample i-1 while a video plays on.
  const frozenAt = (i: number) =>
    i > 0 && !samples[i].black && videoPlays(samples[i - 1], samples[i]) !== undefined && samePicture(samples[i - 1].pixels, samples[i].pixels);
  for (const [a, b] of runs(samples.length, frozenAt)) {
    const [start, stop] = [samples[a - 1].time, until(b)];
    if (stop - start < MIN_FROZEN - 1e-9) continue;
    const ids = [...new Set(samples.slice(a, b + 1).flatMap((s, k) => [videoPlays(samples[a + k - 1], s)].filter((x): x is string => !!x)))];
    findings.push({
      kind: "frozen",
      start,
      end: stop,
      elementIds: ids,
      message: `The picture does not change from ${start} s to ${stop} s while a video plays (a frozen or held frame: a source that stalls, a retime, a still clip). Replace or cut it if it is not meant.`,
    });
  }
  return findings;
}

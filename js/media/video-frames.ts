// Video pictures for the frame renderer, decoded in order by mediabunny instead of seeking a
// video element for every frame. A seek decodes again from the key frame before the target, and
// an element's "seeked" can come before its new picture; in order, each frame is decoded once,
// and a jump back or far ahead restarts at the key frame before the target. One cursor per timeline element, so
// two elements of the same file (a picture-in-picture of the main clip) do not undo each other.
// mediabunny is loaded when a video is first asked for, so that a page that cannot resolve it
// still renders: its videos fall back to element seeks.
import type { Input, VideoSample, VideoSampleSink } from "mediabunny";

import type { MediaFrameLayer } from "../render-types.js";
import { URL_SOURCE_OPTIONS } from "./url-options.js";
import { videoTargetTime } from "./video-time.js";

/** Where the asset's bytes are (an editor's `assetSource`). */
export type AssetSourceOf = (assetId: string) => { file?: Blob; url?: string } | undefined;

/** A jump forward longer than this restarts decoding at the target instead of decoding through. */
const RESTART_AFTER_SECONDS = 3;

class Cursor {
  #samples: AsyncGenerator<VideoSample, void, unknown> | undefined;
  #current: VideoSample | undefined;
  #next: VideoSample | undefined;
  #ended = false;
  #lent: VideoFrame | undefined;

  constructor(private readonly sink: VideoSampleSink) {}

  /** A new VideoFrame of the picture shown at `t` seconds; it stays valid until the next call or `close`. */
  async at(t: number): Promise<VideoFrame | null> {
    this.#lent?.close();
    this.#lent = undefined;
    const cur = this.#current;
    if (!this.#samples || !cur || t < cur.timestamp || t > cur.timestamp + RESTART_AFTER_SECONDS) await this.#restart(t);
    // Step while the following picture starts at or before t (no tolerance: a seek to t shows
    // the same picture).
    for (;;) {
      if (!this.#next && !this.#ended) {
        const r = await this.#samples!.next();
        if (r.done) this.#ended = true;
        else this.#next = r.value;
      }
      if (!this.#next || this.#next.timestamp > t) break;
      this.#current?.close();
      this.#current = this.#next;
      this.#next = undefined;
    }
    if (!this.#current) return null;
    this.#lent = this.#current.toVideoFrame();
    return this.#lent;
  }

  async #restart(t: number): Promise<void> {
    this.close();
    this.#ended = false;
    this.#samples = this.sink.samples(t);
  }

  close(): void {
    this.#lent?.close();
    this.#current?.close();
    this.#next?.close();
    this.#lent = this.#current = this.#next = undefined;
    void this.#samples?.return(undefined);
    this.#samples = undefined;
  }
}

/**
 * Pictures of video layers, best asked for at increasing times (an export, playback): null (the
 * renderer seeks an element instead) where mediabunny cannot read or this browser cannot decode
 * the file. Every frame renderer holds one (`video: "decoder"`).
 */
export class SequentialVideoFrames {
  readonly #sinks = new Map<string, Promise<VideoSampleSink | null>>();
  readonly #cursors = new Map<string, Cursor>();
  readonly #asked = new Set<string>();
  readonly #inputs: Input[] = [];

  constructor(
    private readonly sourceOf: AssetSourceOf,
    private readonly assetInfo: (assetId: string) => { fps?: number; duration?: number } | undefined,
  ) {}

  /** The layer's picture, or null to let the renderer load it. */
  async frame(layer: MediaFrameLayer): Promise<VideoFrame | null> {
    if (layer.mediaType !== "video" || !layer.assetId) return null;
    const sink = await this.#sink(layer.assetId);
    if (!sink) return null;
    this.#asked.add(layer.elementId);
    let cursor = this.#cursors.get(layer.elementId);
    if (!cursor) this.#cursors.set(layer.elementId, (cursor = new Cursor(sink)));
    const info = this.assetInfo(layer.assetId);
    return cursor.at(videoTargetTime(layer.sourceTime ?? 0, info?.fps || 30, info?.duration)).catch(() => null);
  }

  #sink(assetId: string): Promise<VideoSampleSink | null> {
    let p = this.#sinks.get(assetId);
    if (!p) {
      p = (async () => {
        const src = this.sourceOf(assetId);
        if (!src?.file && !src?.url) return null;
        const { ALL_FORMATS, BlobSource, Input, UrlSource, VideoSampleSink } = await import("mediabunny");
        const input = new Input({ source: src.file ? new BlobSource(src.file) : new UrlSource(src.url!, URL_SOURCE_OPTIONS), formats: ALL_FORMATS });
        this.#inputs.push(input);
        const track = await input.getPrimaryVideoTrack();
        if (!track || !(await track.canDecode())) return null;
        return new VideoSampleSink(track);
      })().catch(() => null);
      this.#sinks.set(assetId, p);
    }
    return p;
  }

  /** Counts element `elementId` as on screen for the next sweep (its picture was reused). */
  keep(elementId: string): void {
    this.#asked.add(elementId);
  }

  /**
   * Closes the decoders of elements not asked for since the last sweep: the export sweeps after
   * each frame, so a long timeline holds decoders only for the clips on screen (browsers limit
   * how many run at once).
   */
  sweep(): void {
    for (const [id, c] of this.#cursors) {
      if (this.#asked.has(id)) continue;
      c.close();
      this.#cursors.delete(id);
    }
    this.#asked.clear();
  }

  /** How many elements hold a decoder now. */
  get open(): number {
    return this.#cursors.size;
  }

  /** Closes every picture and file. */
  dispose(): void {
    for (const c of this.#cursors.values()) c.close();
    this.#cursors.clear();
    for (const input of this.#inputs) input.dispose();
  }
}

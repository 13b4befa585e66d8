// Video pictures for the frame renderer, decoded in order by mediabunny instead of seeking a
// video element for every frame. A seek decodes again from the key frame before the target, and
// an element's "seeked" can come before its new picture; in order, each frame is decoded once,
// and a jump back or far ahead restarts at the key frame before the target. One cursor per timeline element, so
// two elements of the same file (a picture-in-picture of the main clip) do not undo each other.
// mediabunny is loaded when a video is first asked for, so that a page that cannot resolve it
// still renders: its videos fall back to element seeks.
import type { Input, VideoSample, VideoSampleSink } from "mediabunny";

import type { MediaFrameLayer } from "../generated/tools.js";
import { URL_SOURCE_OPTIONS } from "./url-options.js";
import { videoTargetTime } from "./video-time.js";

/** Where the asset's bytes are (an editor's `assetSource`). */
export type AssetSourceOf = (assetId: string) => { file?: Blob; url?: string } | undefined;

/** A jump forward longer than this restarts decoding at the target instead of decoding through. */
const RESTART_AFTER_SECONDS = 3;

/**
 * Files kept open with no element on screen. Each open file holds up to its read cache (8 MiB
 * for a File, 16 MiB for a URL): an hour's session that shows a hundred clips would otherwise
 * keep them all. A file closed here is opened again (its index read again) when a clip returns.
 */
const IDLE_FILES = 4;

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
  readonly #sinks = new Map<string, Promise<VideoSampleSink | null>>(); // asset id -> its decoder source
  readonly #inputs = new Map<string, Input>(); // asset id -> the open file
  readonly #cursors = new Map<string, Cursor>(); // element id -> its decoding
  readonly #assetOf = new Map<string, string>(); // element id -> asset id, for open cursors
  readonly #asked = new Set<string>();
  #idle: string[] = []; // asset ids of open files with no cursor, the longest idle first
  #disposed = false;

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
    if (!cursor) {
      this.#cursors.set(layer.elementId, (cursor = new Cursor(sink)));
      this.#assetOf.set(layer.elementId, layer.assetId);
    }
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
        try {
          const track = await input.getPrimaryVideoTrack();
          if (track && (await track.canDecode()) && !this.#disposed) {
            this.#inputs.set(assetId, input);
            return new VideoSampleSink(track);
          }
        } catch {
          // Unreadable: the renderer loads it another way. The answer (null) is kept.
        }
        input.dispose();
        return null;
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
      this.#assetOf.delete(id);
    }
    this.#asked.clear();
    // Files no element reads any more wait in line; beyond IDLE_FILES the longest idle is closed.
    const inUse = new Set(this.#assetOf.values());
    this.#idle = this.#idle.filter((id) => !inUse.has(id));
    for (const id of this.#inputs.keys()) if (!inUse.has(id) && !this.#idle.includes(id)) this.#idle.push(id);
    while (this.#idle.length > IDLE_FILES) {
      const id = this.#idle.shift()!;
      this.#inputs.get(id)?.dispose();
      this.#inputs.delete(id);
      this.#sinks.delete(id);
    }
  }

  /** How many elements hold a decoder now. */
  get open(): number {
    return this.#cursors.size;
  }

  /** How many files are open now (read by an element, or idle). */
  get files(): number {
    return this.#inputs.size;
  }

  /** Closes every picture and file. */
  dispose(): void {
    this.#disposed = true;
    for (const c of this.#cursors.values()) c.close();
    this.#cursors.clear();
    this.#assetOf.clear();
    for (const input of this.#inputs.values()) input.dispose();
    this.#inputs.clear();
    this.#sinks.clear();
    this.#idle = [];
  }
}

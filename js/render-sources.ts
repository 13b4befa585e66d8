// The renderer's media caches: where each media layer's picture comes from (the host's callback,
// a drawn graphic, an image decoded once, a video decoded in order or seeked in an element) and
// how long decoded pictures, video elements and object URLs are kept (a few idle ones at most).
import { NeuralCutError } from "./errors.js";
import { SequentialVideoFrames } from "./media/video-frames.js";
import { videoTargetTime } from "./media/video-time.js";
import { drawGraphic, graphicKey } from "./render-graphic.js";
import type { MediaFrameLayer } from "./generated/tools.js";
import type { CreateFrameRendererOptions, LayerSource } from "./render.js";

/** Decoded images kept with no frame using them (besides those the current frame uses). */
const IDLE_IMAGES = 8;
/** Video elements (the seeking fallback) kept with no frame using them. */
const IDLE_VIDEO_ELEMENTS = 2;

function once(target: EventTarget, event: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      target.removeEventListener(event, ok);
      target.removeEventListener("error", bad);
      reject(new NeuralCutError("NO_SOURCE", `timed out waiting for ${event}`));
    }, timeoutMs);
    const ok = () => {
      clearTimeout(timer);
      target.removeEventListener("error", bad);
      resolve();
    };
    const bad = () => {
      clearTimeout(timer);
      target.removeEventListener(event, ok);
      reject(new NeuralCutError("NO_SOURCE", "the media failed to load"));
    };
    target.addEventListener(event, ok, { once: true });
    target.addEventListener("error", bad, { once: true });
  });
}

/**
 * A bitmap of a video picture drawn through a 2D canvas: SwiftShader's WebGPU cannot copy from
 * video elements, VideoFrames or bitmaps made straight from them, and the picture must be
 * captured before the element seeks again.
 */
/** Resolves once `v` presents its next frame (at most 250 ms), or after one task where the
 * browser has no requestVideoFrameCallback. */
function presentedFrame(v: HTMLVideoElement): Promise<void> {
  const rvfc = (v as HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number }).requestVideoFrameCallback;
  if (typeof rvfc !== "function") return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 250);
    rvfc.call(v, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function stage(
  source: CanvasImageSource & ({ videoWidth: number; videoHeight: number } | { displayWidth: number; displayHeight: number }),
): ImageBitmap {
  const [w, h] = "videoWidth" in source ? [source.videoWidth, source.videoHeight] : [source.displayWidth, source.displayHeight];
  const c = new OffscreenCanvas(w, h);
  c.getContext("2d")!.drawImage(source, 0, 0, w, h);
  return c.transferToImageBitmap();
}

/** A layer's picture, or `reuse` when its slot already holds it; `key` names what it is. */
export interface LayerPicture {
  s?: LayerSource;
  reuse?: true;
  key: unknown;
}

export interface LayerSources {
  /** The layer's picture, or `reuse` when slot `i` already holds it (see `uploaded`). */
  sourceFor(layer: MediaFrameLayer, i: number): Promise<LayerPicture>;
  /** Forgets the project's asset facts read for the last frame. */
  beginFrame(): void;
  /** Closes the decoders of elements no longer on screen and lets idle pictures go. */
  endFrame(): void;
  cached(): { images: number; videoElements: number; videoFiles: number };
  destroy(): void;
}

/**
 * The sources of a renderer. `uploaded` is what each compositor slot holds (shared with the frame
 * loop): a picture already uploaded there is not loaded again, and a released image's slot is
 * marked empty.
 */
export function createLayerSources(options: Pick<CreateFrameRendererOptions, "editor" | "media" | "video">, uploaded: unknown[]): LayerSources {
  const { editor, media } = options;
  const urls = new Map<string, string>(); // asset id -> object URL of its File
  const images = new Map<string, Promise<ImageBitmap>>(); // url -> decoded picture
  const videos = new Map<string, HTMLVideoElement>(); // url -> element used for seeking
  // The frame that last used each cached image and video element (by URL); see prune().
  let frameNo = 0;
  const lastUsed = { images: new Map<string, number>(), videos: new Map<string, number>() };
  // A video's frame rate and duration, from the project read once per frame that asks
  // (`project()` serialises the whole project; render() forgets it at the start of each frame).
  let frameAssets: Map<string, { fps?: number; duration?: number }> | undefined;
  const assetInfo = (id: string) => {
    frameAssets ??= new Map(
      (editor.project()?.assets ?? []).map((a) => [a.id, { fps: a.fps ? a.fps.numerator / a.fps.denominator : undefined, duration: a.duration }]),
    );
    return frameAssets.get(id);
  };
  const decoder = options.video === "element" ? undefined : new SequentialVideoFrames((id) => editor.assetSource(id), assetInfo);

  const urlOf = (layer: MediaFrameLayer): string | undefined => {
    if (layer.assetId) {
      const src = editor.assetSource(layer.assetId);
      if (src?.url) return src.url;
      if (src?.file) {
        if (!urls.has(layer.assetId)) urls.set(layer.assetId, URL.createObjectURL(src.file));
        return urls.get(layer.assetId);
      }
    }
    return layer.url;
  };

  const image = (url: string): Promise<ImageBitmap> => {
    lastUsed.images.set(url, frameNo);
    let p = images.get(url);
    if (!p && typeof Image !== "undefined") {
      // An image element decodes every format the page can show, SVG included.
      const img = new Image();
      img.crossOrigin = "anonymous";
      img.src = url;
      p = img.decode().then(() => createImageBitmap(img));
      p.catch(() => images.delete(url));
      images.set(url, p);
    }
    if (!p) {
      p = fetch(url)
        .then((r) => {
          if (!r.ok) throw new NeuralCutError("NO_SOURCE", `HTTP ${r.status}`);
          return r.blob();
        })
        .then((b) => createImageBitmap(b));
      p.catch(() => images.delete(url));
      images.set(url, p);
    }
    return p;
  };

  /**
   * A bitmap of the video at `time` seconds, by seeking an element (aimed at the frame's middle).
   * One element per video: two layers of the same video (a picture-in-picture of the main
   * clip) take turns, each seek captured before the next starts.
   */
  const videoTurns = new Map<string, Promise<unknown>>();
  const videoFrame = (url: string, time: number, fps: number): Promise<ImageBitmap> => {
    lastUsed.videos.set(url, frameNo);
    const turn = (videoTurns.get(url) ?? Promise.resolve()).then(() => seekAndStage(url, time, fps));
    videoTurns.set(
      url,
      turn.catch(() => undefined),
    );
    return turn;
  };
  const seekAndStage = async (url: string, time: number, fps: number): Promise<ImageBitmap> => {
    if (typeof document === "undefined") throw new NeuralCutError("NO_SOURCE", "video needs a document (HTMLVideoElement); pass a media callback in a worker");
    let v = videos.get(url);
    if (!v) {
      v = document.createElement("video");
      v.muted = true;
      v.preload = "auto";
      v.playsInline = true;
      v.crossOrigin = "anonymous";
      v.src = url;
      videos.set(url, v);
    }
    if (v.readyState < 1) await once(v, "loadedmetadata");
    const target = videoTargetTime(time, fps, v.duration);
    if (Math.abs(v.currentTime - target) > 1e-4 || v.readyState < 2) {
      const seeked = once(v, "seeked");
      // Chromium can fire "seeked" before the new picture reaches what drawImage reads: a stale
      // frame was drawn twice in 2,100 seeks of a loaded machine (four busy loops on two cores),
      // none in 1,800 with one task's wait first, and still once in a fresh-clone CI run on a
      // machine busy with three other jobs (video-frames.test: the seek drew frame 5 at 0 s).
      // So the picture is awaited as the page presents it (requestVideoFrameCallback, which
      // fires for a paused element's seek too), with one task's wait where it is missing and a
      // bound in case no frame is presented.
      const presented = presentedFrame(v);
      v.currentTime = target;
      await seeked;
      await presented;
    }
    if (v.readyState < 2) await once(v, "loadeddata");
    return stage(v);
  };

  /**
   * Lets go of the images and video elements no frame has used lately beyond the most recent few
   * (a decoded 4000×3000 photo holds 48 MB; an element, a decoder and its buffers). A slot that
   * still holds a released image is marked empty, so the image is loaded again if it returns.
   */
  const prune = () => {
    const idle = (used: Map<string, number>, limit: number): string[] => {
      const old = [...used].filter(([, n]) => n < frameNo).sort((a, b) => a[1] - b[1]);
      return old.slice(0, Math.max(0, old.length - limit)).map(([url]) => url);
    };
    for (const url of idle(lastUsed.images, IDLE_IMAGES)) {
      void images.get(url)?.then(
        (b) => b.close(),
        () => {},
      );
      images.delete(url);
      lastUsed.images.delete(url);
      for (let i = 0; i < uploaded.length; i++) if (uploaded[i] === `image ${url}`) uploaded[i] = undefined;
    }
    for (const url of idle(lastUsed.videos, IDLE_VIDEO_ELEMENTS)) {
      const v = videos.get(url);
      if (v) {
        v.removeAttribute("src");
        v.load();
      }
      videos.delete(url);
      videoTurns.delete(url);
      lastUsed.videos.delete(url);
    }
  };

  /**
   * What identifies a picture for the upload cache: the same key means the same pixels. Pictures
   * that can change in place (canvases, video frames) have none and are uploaded every frame.
   */
  const keyOf = (given: LayerSource): unknown => {
    if (typeof HTMLVideoElement !== "undefined" && given instanceof HTMLVideoElement) return `video ${given.currentSrc} @${given.currentTime}`;
    if (
      (typeof ImageBitmap !== "undefined" && given instanceof ImageBitmap) ||
      (typeof HTMLImageElement !== "undefined" && given instanceof HTMLImageElement) ||
      (typeof ImageData !== "undefined" && given instanceof ImageData)
    )
      return given;
    return undefined;
  };

  /** The layer's picture, or `reuse` when slot `i` already holds it. */
  const sourceFor = async (layer: MediaFrameLayer, i: number): Promise<{ s?: LayerSource; reuse?: true; key: unknown }> => {
    // A graphic is drawn here from its params, never asked of the host's media callback.
    if (layer.graphic) {
      const key = graphicKey(layer.graphic);
      return uploaded[i] === key ? { reuse: true, key } : { s: drawGraphic(layer.graphic), key };
    }
    const given = media ? await media(layer) : null;
    if (given) {
      const key = keyOf(given);
      return key !== undefined && uploaded[i] === key ? { reuse: true, key } : { s: given, key };
    }
    const url = urlOf(layer);
    if (!url)
      throw new NeuralCutError(
        "NO_SOURCE",
        layer.mediaType === "sticker"
          ? `no picture for sticker ${layer.stickerId} (register it with editor.addSticker(id, name, url))`
          : `no source for asset ${layer.assetId} (addAsset with file or url, or a media callback)`,
      );
    if (layer.mediaType === "video") {
      const fps = (layer.assetId && assetInfo(layer.assetId)?.fps) || 30;
      const key = `video ${url} @${layer.sourceTime ?? 0} ${fps}`;
      if (uploaded[i] === key) {
        decoder?.keep(layer.elementId);
        if (videos.has(url)) lastUsed.videos.set(url, frameNo);
        return { reuse: true, key };
      }
      const decoded = await decoder?.frame(layer);
      return { s: decoded ?? (await videoFrame(url, layer.sourceTime ?? 0, fps)), key };
    }
    const key = `image ${url}`;
    if (uploaded[i] !== key) return { s: await image(url), key };
    lastUsed.images.set(url, frameNo);
    return { reuse: true, key };
  };

  return {
    sourceFor,
    beginFrame() {
      frameAssets = undefined;
    },
    endFrame() {
      // Decoders of elements no longer on screen are closed (browsers limit how many run at once).
      decoder?.sweep();
      prune();
      frameNo++;
    },
    cached() {
      return { images: images.size, videoElements: videos.size, videoFiles: decoder?.files ?? 0 };
    },
    destroy() {
      for (const u of urls.values()) URL.revokeObjectURL(u);
      for (const v of videos.values()) {
        v.removeAttribute("src");
        v.load();
      }
      decoder?.dispose();
    },
  };
}

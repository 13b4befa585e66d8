// Reads what an asset needs (type, duration, size, frame rate) from a media file, never decoding
// it: audio and video through mediabunny's demuxers (the same library the export muxes with:
// MP4/MOV/M4A, WebM/MKV, Ogg, WAV, MP3, AAC, FLAC), pictures through image-size (PNG, JPEG, GIF,
// WebP, AVIF, BMP, SVG, ...). Anything else is a clear error. One prober for every Node-side
// import: media_import in `neuralcut mcp` and the CLI (js/mcp/core.ts), and in bridge mode, where
// the files then go to the page (js/bridge/mcp.ts).
import { open, type FileHandle } from "node:fs/promises";
import { basename, isAbsolute } from "node:path";

import { ALL_FORMATS, FilePathSource, Input } from "mediabunny";
import { imageSize } from "image-size";

import type { AssetJson, FrameRate } from "../types.js";
import { NeuralCutError } from "../errors.js";

/** What a file's headers say: the fields of an asset (generated `AssetJson`) they give, and the format. */
export interface MediaInfo extends Pick<AssetJson, "name" | "type" | "duration" | "width" | "height" | "fps"> {
  /** Container or picture format: mp4, mov, m4a, webm, mkv, ogg, wav, mp3, aac, flac, png, jpeg, gif, webp, ... */
  format: string;
}

/** A file that cannot be imported (`MEDIA_UNREADABLE`); `message` says which and why. */
export class MediaProbeError extends NeuralCutError {
  constructor(message: string) {
    super("MEDIA_UNREADABLE", message);
    this.name = "MediaProbeError";
  }
}

export const SUPPORTED_FORMATS = "MP4/MOV/M4A, WebM/MKV, Ogg, WAV, MP3, AAC, FLAC; PNG, JPEG, GIF, WebP, AVIF, BMP, SVG";

/** mediabunny's format names as asset formats. */
const CONTAINERS: Record<string, string> = {
  MP4: "mp4",
  "QuickTime File Format": "mov",
  WebM: "webm",
  Matroska: "mkv",
  Ogg: "ogg",
  WAVE: "wav",
  MP3: "mp3",
  ADTS: "aac",
  FLAC: "flac",
};

/** Bytes image-size needs to find a picture's size (JPEG's frame header may follow large EXIF). */
const IMAGE_HEAD = 512 * 1024;

/** Seconds rounded to the microsecond, so 2.0000000001 prints as 2. */
const seconds = (s: number) => Math.round(s * 1e6) / 1e6;

/** A packet rate as the fraction it stands for: whole, NTSC (n × 1000/1001), else thousandths. */
function frameRate(rate: number): FrameRate | undefined {
  if (!Number.isFinite(rate) || rate <= 0) return undefined;
  const whole = Math.round(rate);
  if (Math.abs(rate - whole) < 0.01) return { numerator: whole, denominator: 1 };
  const ntsc = Math.round((rate * 1001) / 1000);
  if (Math.abs(rate - (ntsc * 1000) / 1001) < 0.01) return { numerator: ntsc * 1000, denominator: 1001 };
  const n = Math.round(rate * 1000);
  let [a, b] = [n, 1000];
  while (b) [a, b] = [b, a % b];
  return { numerator: n / a, denominator: 1000 / a };
}

/** Audio or video through mediabunny; null when no demuxer knows the file. */
async function probeAv(path: string): Promise<Omit<MediaInfo, "name"> | null> {
  const input = new Input({ source: new FilePathSource(path), formats: ALL_FORMATS });
  try {
    const format = await input.getFormat().catch(() => null);
    if (!format) return null;
    const video = await input.getPrimaryVideoTrack();
    const audio = await input.getPrimaryAudioTrack();
    const container = CONTAINERS[format.name] ?? format.name.toLowerCase();
    if (!video && !audio) throw new MediaProbeError(`${container.toUpperCase()} without a video or audio track`);
    const duration = seconds(await input.computeDuration());
    if (!video) return { type: "audio", format: container === "mp4" ? "m4a" : container, duration };
    const fps = frameRate((await video.computePacketStats(100)).averagePacketRate);
    return { type: "video", format: container, duration, width: video.displayWidth, height: video.displayHeight, ...(fps ? { fps } : {}) };
  } finally {
    input.dispose();
  }
}

/** A picture's size through image-size; null when it is not a picture it knows. */
async function probeImage(fh: FileHandle, size: number): Promise<Omit<MediaInfo, "name"> | null> {
  const head = new Uint8Array(Math.min(size, IMAGE_HEAD));
  let got = 0;
  while (got < head.length) {
    const { bytesRead } = await fh.read(head, got, head.length - got, got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  try {
    const { width, height, type } = imageSize(head.subarray(0, got));
    if (!width || !height || !type) return null;
    return { type: "image", format: type === "jpg" ? "jpeg" : type, width, height };
  } catch {
    return null;
  }
}

/** Reads a media file's headers. Throws MediaProbeError with a message for the caller. */
export async function probeMedia(path: string): Promise<MediaInfo> {
  if (typeof path !== "string" || !isAbsolute(path)) {
    throw new MediaProbeError(`Path must be absolute: ${JSON.stringify(path)}`);
  }
  let fh: FileHandle;
  try {
    fh = await open(path, "r");
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new MediaProbeError(code === "ENOENT" ? `File not found: ${path}` : `Cannot open ${path}: ${(e as Error).message}`);
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) throw new MediaProbeError(`Not a file: ${path}`);
    const info = (await probeImage(fh, stat.size)) ?? (await probeAv(path));
    if (!info) throw new MediaProbeError(`Unsupported media format: ${path} (supported: ${SUPPORTED_FORMATS})`);
    return { name: basename(path), ...info };
  } catch (e) {
    if (e instanceof MediaProbeError) throw e;
    throw new MediaProbeError(`Cannot read ${path}: ${(e as Error).message}`);
  } finally {
    await fh.close();
  }
}

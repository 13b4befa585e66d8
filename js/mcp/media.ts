// Reads what an asset needs (type, duration, size, frame rate) from a media file's headers,
// never decoding the media: the MP4/MOV box tree (mvhd, tkhd, hdlr, mdhd, stts), the WAV
// chunk list, the first MP3 frame (exact with a Xing/Info/VBRI header, else estimated from the
// bitrate), and the PNG, JPEG, GIF and WebP headers. Anything else is a clear error.
import { open, type FileHandle } from "node:fs/promises";
import { basename, isAbsolute } from "node:path";

import type { AssetType, FrameRate } from "../types.js";

/** What a file's headers say. */
export interface MediaInfo {
  name: string;
  type: AssetType;
  /** Seconds (video and audio). */
  duration?: number;
  /** True when the duration is an estimate (an MP3 without a VBR header). */
  durationEstimated?: boolean;
  width?: number;
  height?: number;
  fps?: FrameRate;
  /** Container format as detected: mp4, mov, wav, mp3, png, jpeg, gif, webp. */
  format: string;
}

/** A file that cannot be imported; `message` says which and why. */
export class MediaProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MediaProbeError";
  }
}

export const SUPPORTED_FORMATS = "MP4/MOV/M4A/M4V, WAV, MP3, PNG, JPEG, GIF, WebP";

/** Positional reads over an open file. */
class Reader {
  constructor(
    readonly fh: FileHandle,
    readonly size: number,
  ) {}

  /** Up to `length` bytes at `position` (fewer at the end of the file). */
  async read(position: number, length: number): Promise<Uint8Array> {
    const n = Math.max(0, Math.min(length, this.size - position));
    const buf = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      const { bytesRead } = await this.fh.read(buf, got, n - got, position + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === n ? buf : buf.subarray(0, got);
  }
}

const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at] << 8) | b[at + 1];
const u16le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8);
const u24le = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16);
const u32be = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]);
const u32le = (b: Uint8Array, at: number) => ((b[at + 3] << 24) >>> 0) + ((b[at + 2] << 16) | (b[at + 1] << 8) | b[at]);
const u64be = (b: Uint8Array, at: number) => u32be(b, at) * 2 ** 32 + u32be(b, at + 4);

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Seconds rounded to the microsecond, so 2.0000000001 prints as 2. */
const seconds = (units: number, scale: number) => Math.round((units / scale) * 1e6) / 1e6;

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
    const r = new Reader(fh, stat.size);
    const head = await r.read(0, 64);
    const info = await sniff(r, head);
    if (!info) {
      throw new MediaProbeError(`Unsupported media format: ${path} (supported: ${SUPPORTED_FORMATS})`);
    }
    return { name: basename(path), ...info };
  } catch (e) {
    if (e instanceof MediaProbeError) throw e;
    throw new MediaProbeError(`Cannot read ${path}: ${(e as Error).message}`);
  } finally {
    await fh.close();
  }
}

type Probed = Omit<MediaInfo, "name">;

async function sniff(r: Reader, head: Uint8Array): Promise<Probed | null> {
  if (head.length >= 24 && head[0] === 0x89 && ascii(head, 1, 3) === "PNG") return png(head);
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpeg(r);
  if (head.length >= 10 && (ascii(head, 0, 6) === "GIF87a" || ascii(head, 0, 6) === "GIF89a")) {
    return { type: "image", format: "gif", width: u16le(head, 6), height: u16le(head, 8) };
  }
  if (head.length >= 12 && ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WAVE") return wav(r);
  if (head.length >= 30 && ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP") return webp(head);
  if (head.length >= 8 && ["ftyp", "moov", "mdat", "wide", "free", "skip"].includes(ascii(head, 4, 4))) return isoBmff(r, head);
  if (head.length >= 10 && ascii(head, 0, 3) === "ID3") return mp3(r);
  if (head.length >= 4 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return mp3(r);
  return null;
}

// ---- images -------------------------------------------------------------------------------

function png(head: Uint8Array): Probed {
  if (ascii(head, 12, 4) !== "IHDR") throw new MediaProbeError("PNG without an IHDR chunk");
  return { type: "image", format: "png", width: u32be(head, 16), height: u32be(head, 20) };
}

async function jpeg(r: Reader): Promise<Probed> {
  // Walk the marker segments up to the first start-of-frame (SOF0..SOF15 but DHT, JPG, DAC).
  let at = 2;
  for (let guard = 0; guard < 10_000 && at + 4 <= r.size; guard++) {
    const seg = await r.read(at, 10);
    if (seg[0] !== 0xff) break;
    const marker = seg[1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image / start of scan before any frame
    const length = u16be(seg, 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (seg.length < 9) break;
      return { type: "image", format: "jpeg", height: u16be(seg, 5), width: u16be(seg, 7) };
    }
    at += 2 + length;
  }
  throw new MediaProbeError("JPEG without a frame header");
}

function webp(head: Uint8Array): Probed {
  const chunk = ascii(head, 12, 4);
  if (chunk === "VP8X") return { type: "image", format: "webp", width: u24le(head, 24) + 1, height: u24le(head, 27) + 1 };
  if (chunk === "VP8L") {
    const bits = u32le(head, 21);
    return { type: "image", format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8 ") return { type: "image", format: "webp", width: u16le(head, 26) & 0x3fff, height: u16le(head, 28) & 0x3fff };
  throw new MediaProbeError(`WebP with an unknown first chunk "${chunk}"`);
}

// ---- WAV ----------------------------------------------------------------------------------

async function wav(r: Reader): Promise<Probed> {
  let at = 12;
  let byteRate = 0;
  for (let guard = 0; guard < 1000 && at + 8 <= r.size; guard++) {
    const h = await r.read(at, 24);
    const id = ascii(h, 0, 4);
    const size = u32le(h, 4);
    if (id === "fmt ") {
      if (size < 16 || h.length < 24) throw new MediaProbeError("WAV with a short fmt chunk");
      byteRate = u32le(h, 16);
    } else if (id === "data") {
      if (!byteRate) throw new MediaProbeError("WAV with its data chunk before the fmt chunk");
      // A streamed WAV may leave the size unset (0 or 0xFFFFFFFF): the data runs to the end.
      const available = r.size - (at + 8);
      const bytes = size === 0 || size === 0xffffffff || size > available ? available : size;
      return { type: "audio", format: "wav", duration: seconds(bytes, byteRate) };
    }
    at += 8 + size + (size & 1);
  }
  throw new MediaProbeError("WAV without a data chunk");
}

// ---- MP3 ----------------------------------------------------------------------------------

const MP3_BITRATES = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as Record<number, number[]>;

async function mp3(r: Reader): Promise<Probed> {
  let start = 0;
  const id3 = await r.read(0, 10);
  if (ascii(id3, 0, 3) === "ID3") {
    const size = ((id3[6] & 0x7f) << 21) | ((id3[7] & 0x7f) << 14) | ((id3[8] & 0x7f) << 7) | (id3[9] & 0x7f);
    start = 10 + size + (id3[5] & 0x10 ? 10 : 0);
  }
  // The first frame sync within 64 KiB of the tag.
  const window = await r.read(start, 65536);
  let i = 0;
  for (; i + 4 <= window.length; i++) {
    if (window[i] !== 0xff || (window[i + 1] & 0xe0) !== 0xe0) continue;
    const version = (window[i + 1] >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const layer = (window[i + 1] >> 1) & 3; // 1: Layer III
    const bitrateIndex = window[i + 2] >> 4;
    const rateIndex = (window[i + 2] >> 2) & 3;
    if (version !== 1 && layer === 1 && bitrateIndex > 0 && bitrateIndex < 15 && rateIndex < 3) break;
  }
  if (i + 4 > window.length) throw new MediaProbeError("MP3 without an MPEG Layer III frame header");
  const frameAt = start + i;
  const f = await r.read(frameAt, 200);
  const version = (f[1] >> 3) & 3;
  const sampleRate = MP3_RATES[version][(f[2] >> 2) & 3];
  const bitrate = (version === 3 ? MP3_BITRATES.v1 : MP3_BITRATES.v2)[f[2] >> 4] * 1000;
  const mono = f[3] >> 6 === 3;
  const samplesPerFrame = version === 3 ? 1152 : 576;
  // A Xing/Info header (after the side information) or a VBRI header (at 32) counts the frames.
  const xingAt = 4 + (version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17);
  let frames = 0;
  if (["Xing", "Info"].includes(ascii(f, xingAt, 4)) && u32be(f, xingAt + 4) & 1) frames = u32be(f, xingAt + 8);
  else if (ascii(f, 36, 4) === "VBRI") frames = u32be(f, 36 + 14);
  if (frames > 0) return { type: "audio", format: "mp3", duration: seconds(frames * samplesPerFrame, sampleRate) };
  // Constant bitrate: the audio bytes (less a trailing ID3v1 tag) over the bitrate.
  const tail = r.size >= 128 ? await r.read(r.size - 128, 3) : new Uint8Array();
  const audioBytes = r.size - frameAt - (ascii(tail, 0, 3) === "TAG" ? 128 : 0);
  return { type: "audio", format: "mp3", duration: seconds(audioBytes * 8, bitrate), durationEstimated: true };
}

// ---- MP4 / MOV (ISO base media) -----------------------------------------------------------

interface Box {
  type: string;
  /** Payload start and end, in the buffer or file. */
  start: number;
  end: number;
}

/** The child boxes of `buf[from..to)`. */
function boxes(buf: Uint8Array, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = u32be(buf, at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = u64be(buf, at + 8);
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) break;
    out.push({ type: ascii(buf, at + 4, 4), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (buf: Uint8Array, box: Box | undefined, type: string) => (box ? boxes(buf, box.start, box.end).find((b) => b.type === type) : undefined);

/** mvhd/mdhd: [timescale, duration] for version 0 or 1. */
function timing(buf: Uint8Array, box: Box): [number, number] {
  const v = buf[box.start];
  return v === 1 ? [u32be(buf, box.start + 20), u64be(buf, box.start + 24)] : [u32be(buf, box.start + 12), u32be(buf, box.start + 16)];
}

const MAX_MOOV = 256 * 1024 * 1024;

async function isoBmff(r: Reader, head: Uint8Array): Promise<Probed> {
  const brand = ascii(head, 4, 4) === "ftyp" ? ascii(head, 8, 4) : "";
  const format = brand === "qt  " ? "mov" : "mp4";
  // Top-level boxes are walked by their headers only; mdat is skipped, never read.
  let at = 0;
  let moov: Uint8Array | undefined;
  while (at + 8 <= r.size) {
    const h = await r.read(at, 16);
    let size = u32be(h, 0);
    let header = 8;
    if (size === 1) {
      size = u64be(h, 8);
      header = 16;
    } else if (size === 0) {
      size = r.size - at;
    }
    if (size < header) throw new MediaProbeError(`${format.toUpperCase()} with a broken box at byte ${at}`);
    if (ascii(h, 4, 4) === "moov") {
      if (size > MAX_MOOV) throw new MediaProbeError(`${format.toUpperCase()} moov box too large (${size} bytes)`);
      moov = await r.read(at + header, size - header);
      break;
    }
    at += size;
  }
  if (!moov) throw new MediaProbeError(`${format.toUpperCase()} without a moov box (incomplete or fragmented file)`);
  const top = boxes(moov, 0, moov.length);
  const mvhd = top.find((b) => b.type === "mvhd");
  if (!mvhd) throw new MediaProbeError(`${format.toUpperCase()} without an mvhd box`);
  const [timescale, units] = timing(moov, mvhd);
  let video: Pick<MediaInfo, "width" | "height" | "fps"> | undefined;
  let audio = false;
  for (const trak of top.filter((b) => b.type === "trak")) {
    const mdia = child(moov, trak, "mdia");
    const hdlr = child(moov, mdia, "hdlr");
    const handler = hdlr ? ascii(moov, hdlr.start + 8, 4) : "";
    if (handler === "soun") audio = true;
    if (handler !== "vide" || video) continue;
    const tkhd = child(moov, trak, "tkhd");
    video = {};
    if (tkhd && tkhd.end - tkhd.start >= 84) {
      // The track's presentation size: 16.16 fixed point, the last 8 bytes of tkhd.
      video.width = Math.round(u32be(moov, tkhd.end - 8) / 65536);
      video.height = Math.round(u32be(moov, tkhd.end - 4) / 65536);
    }
    // Constant frame rate: one stts entry, every sample the same length.
    const mdhd = child(moov, mdia, "mdhd");
    const stts = child(moov, child(moov, child(moov, mdia, "minf"), "stbl"), "stts");
    if (mdhd && stts && u32be(moov, stts.start + 4) === 1) {
      const [scale] = timing(moov, mdhd);
      const delta = u32be(moov, stts.start + 12);
      if (scale > 0 && delta > 0) {
        const g = gcd(scale, delta);
        video.fps = { numerator: scale / g, denominator: delta / g };
      }
    }
  }
  if (!video && !audio) throw new MediaProbeError(`${format.toUpperCase()} without a video or audio track`);
  if (!timescale || !units) throw new MediaProbeError(`${format.toUpperCase()} without a duration (fragmented file?)`);
  const duration = seconds(units, timescale);
  if (!video) return { type: "audio", format: brand.startsWith("M4A") ? "m4a" : format, duration };
  return { type: "video", format, duration, ...video };
}

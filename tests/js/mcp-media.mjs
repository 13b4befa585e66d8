// Small media files for the media_import tests: a PCM WAV, a PNG, a JPEG header and a CBR MP3
// written byte by byte, and an MP4 written by mediabunny. They carry the headers the probe reads,
// with known values to assert on.
import { deflateSync } from "node:zlib";

const be32 = (n) => Buffer.from([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const be16 = (n) => Buffer.from([(n >>> 8) & 255, n & 255]);

/** A mono 16-bit PCM WAV of `seconds` of silence at `rate` Hz. */
export function wav(seconds, rate = 8000) {
  const data = Buffer.alloc(Math.round(seconds * rate) * 2);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVE", 8);
  h.write("fmt ", 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28); // byte rate
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type, data) {
  const td = Buffer.concat([Buffer.from(type, "ascii"), data]);
  return Buffer.concat([be32(data.length), td, be32(crc32(td))]);
}

/** A valid grey `width` x `height` PNG. */
export function png(width, height) {
  const ihdr = Buffer.concat([be32(width), be32(height), Buffer.from([8, 0, 0, 0, 0])]); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The headers of a baseline JPEG (SOI, APP0, SOF0, EOI): enough to read its size. */
export function jpegHeader(width, height) {
  const app0 = Buffer.concat([Buffer.from([0xff, 0xe0]), be16(16), Buffer.from("JFIF\0", "ascii"), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0])]);
  const sof0 = Buffer.concat([Buffer.from([0xff, 0xc0]), be16(11), Buffer.from([8]), be16(height), be16(width), Buffer.from([1, 1, 0x11, 0])]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0, Buffer.from([0xff, 0xd9])]);
}

/** An MP4 written by mediabunny's muxer: one VP9 video track, `seconds` long at `fps` frames per
 * second, `width` x `height`. The packets are placeholders: probing reads the headers only. */
export async function mp4({ seconds, width, height, fps }) {
  const { BufferTarget, EncodedPacket, EncodedVideoPacketSource, Mp4OutputFormat, Output } = await import("mediabunny");
  const out = new Output({ format: new Mp4OutputFormat(), target: new BufferTarget() });
  const video = new EncodedVideoPacketSource("vp9");
  out.addVideoTrack(video, { frameRate: fps });
  await out.start();
  for (let i = 0; i < Math.round(seconds * fps); i++) {
    const meta = i === 0 ? { decoderConfig: { codec: "vp09.00.10.08", codedWidth: width, codedHeight: height } } : undefined;
    await video.add(new EncodedPacket(new Uint8Array(16), i === 0 ? "key" : "delta", i / fps, 1 / fps), meta);
  }
  await out.finalize();
  return Buffer.from(out.target.buffer);
}

/** A constant-bitrate MP3: `frames` MPEG-1 Layer III frames at 128 kbit/s, 44.1 kHz (417
 * bytes, 1152 samples each), after an ID3v2 tag. */
export function mp3Cbr(frames) {
  const id3 = Buffer.concat([Buffer.from("ID3", "ascii"), Buffer.from([4, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10)]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, ...Array(frames).fill(frame)]);
}

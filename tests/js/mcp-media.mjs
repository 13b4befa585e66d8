// Small media files for the media_import tests, written byte by byte: a PCM WAV, a PNG, a
// JPEG header, an MP4 box tree (ftyp, moov with mvhd and a video track, mdat) and a CBR MP3.
// They carry exactly the headers the probe reads, with known values to assert on.
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

const box = (type, ...parts) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([be32(8 + body.length), Buffer.from(type, "ascii"), body]);
};
const full = (type, version, ...parts) => box(type, Buffer.from([version, 0, 0, 0]), ...parts);

/** An MP4 whose moov (after mdat, as in an un-"faststarted" file) holds one video track:
 * `seconds` long at `fps` frames per second (timescale 90000), `width` x `height`. */
export function mp4({ seconds, width, height, fps }) {
  const movieScale = 1000;
  const trackScale = 90000;
  const frames = Math.round(seconds * fps);
  const mvhd = full("mvhd", 0, be32(0), be32(0), be32(movieScale), be32(seconds * movieScale), Buffer.alloc(80));
  const tkhd = full("tkhd", 0, Buffer.alloc(72), be32(width * 65536), be32(height * 65536));
  const mdhd = full("mdhd", 0, be32(0), be32(0), be32(trackScale), be32(frames * (trackScale / fps)), Buffer.alloc(4));
  const hdlr = full("hdlr", 0, be32(0), Buffer.from("vide", "ascii"), Buffer.alloc(12), Buffer.from("Video\0", "ascii"));
  const stts = full("stts", 0, be32(1), be32(frames), be32(trackScale / fps));
  const trak = box("trak", tkhd, box("mdia", mdhd, hdlr, box("minf", box("stbl", stts))));
  return Buffer.concat([box("ftyp", Buffer.from("isom", "ascii"), be32(512), Buffer.from("isomiso2mp41", "ascii")), box("mdat", Buffer.alloc(4096)), box("moov", mvhd, trak)]);
}

/** A constant-bitrate MP3: `frames` MPEG-1 Layer III frames at 128 kbit/s, 44.1 kHz (417
 * bytes each), after an ID3v2 tag. Its duration is estimated from the bitrate. */
export function mp3Cbr(frames) {
  const id3 = Buffer.concat([Buffer.from("ID3", "ascii"), Buffer.from([4, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10)]);
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([id3, ...Array(frames).fill(frame)]);
}

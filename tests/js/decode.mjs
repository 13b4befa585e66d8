// Reads exported files back with ffmpeg and ffprobe, a decoder independent of the mediabunny that
// wrote them: the streams, one frame as RGB at a time, the sound as PCM, loudness per window.
// ffmpeg is required (scripts/setup.sh installs it): without it these throw, they never skip.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

const MAX_BUFFER = 512 << 20;

function tool(name, args) {
  const r = spawnSync(name, args, { maxBuffer: MAX_BUFFER });
  if (r.error?.code === "ENOENT")
    assert.fail(`${name} is not installed: run scripts/setup.sh (it installs ffmpeg and ffprobe), the export tests decode what they wrote with it`);
  assert.equal(r.status, 0, `${name} ${args.join(" ")}: ${r.stderr}`);
  return r;
}

/** ffprobe's streams (video first): codec_type, codec_name, width, height, r_frame_rate, channels. */
export function probe(path) {
  const out = tool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height,r_frame_rate,channels", "-of", "json", path]).stdout;
  return JSON.parse(out).streams.sort((a, b) => (a.codec_type === "video" ? -1 : b.codec_type === "video" ? 1 : 0));
}

/** Decodes every frame and sample; fails on any decoder message. */
export function decodesCleanly(path) {
  const r = tool("ffmpeg", ["-v", "error", "-i", path, "-f", "null", "-"]);
  assert.equal(r.stderr.toString(), "", `ffmpeg decoding ${path}`);
}

/** The frame shown at `seconds`, as { width, height, px(x, y) }: the mean RGB of the 5×5 pixels around (x, y). */
export function frameAt(path, seconds) {
  const [v] = probe(path);
  const data = tool("ffmpeg", ["-v", "error", "-i", path, "-ss", String(seconds), "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]).stdout;
  assert.equal(data.length, v.width * v.height * 3, `one ${v.width}x${v.height} frame at ${seconds} s of ${path}`);
  const px = (x, y) => {
    const sum = [0, 0, 0];
    let n = 0;
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -2; dx <= 2; dx++) {
        const i = ((y + dy) * v.width + (x + dx)) * 3;
        for (let c = 0; c < 3; c++) sum[c] += data[i + c];
        n++;
      }
    }
    return sum.map((s) => Math.round(s / n));
  };
  return { width: v.width, height: v.height, px };
}

/** Asserts each channel of `got` is within `tol` of `want`. */
export function nearColour(got, want, tol, what) {
  assert.ok(
    got.every((c, i) => Math.abs(c - want[i]) <= tol),
    `${what}: ${got} is not within ${tol} of ${want} in each channel`,
  );
}

/** The first channel of the file's sound, 48 kHz float samples (a mono source mixed to stereo is on both). */
export function pcm(path) {
  const out = tool("ffmpeg", ["-v", "error", "-i", path, "-vn", "-af", "pan=mono|c0=c0", "-ar", "48000", "-f", "f32le", "pipe:1"]).stdout;
  return new Float32Array(out.buffer, out.byteOffset, out.length / 4);
}

/** RMS of samples [from, to) seconds, in dBFS (-Infinity for digital silence). */
export function rmsDb(samples, from, to, rate = 48000) {
  const a = Math.round(from * rate);
  const b = Math.min(samples.length, Math.round(to * rate));
  assert.ok(b - a > rate / 100, `${from}-${to} s lies within the ${samples.length / rate} s of sound`);
  let sum = 0;
  for (let i = a; i < b; i++) sum += samples[i] * samples[i];
  return 10 * Math.log10(sum / (b - a));
}

/** Asserts loudness over [from, to) within `tolDb` of `wantDb`. */
export function loud(samples, from, to, wantDb, tolDb, what) {
  const db = rmsDb(samples, from, to);
  assert.ok(Math.abs(db - wantDb) <= tolDb, `${what}: ${from}-${to} s is ${db.toFixed(1)} dBFS, want ${wantDb.toFixed(1)} ± ${tolDb} dB`);
}

/** Asserts silence over [from, to): RMS below `belowDb` dBFS. */
export function silent(samples, from, to, belowDb, what) {
  const db = rmsDb(samples, from, to);
  assert.ok(db < belowDb, `${what}: ${from}-${to} s is ${db.toFixed(1)} dBFS, want silence (below ${belowDb} dBFS)`);
}

// Whisper hears 16 kHz mono: every other rate is resampled here, not relabelled (OpenCut #703 fed
// 44.1 kHz as 16 kHz, and every word came out at 0.36x its time). mediabunny's own resampler is
// internal to its Conversion and interpolates linearly, with no low-pass: 48 kHz speech would fold
// its 8-24 kHz band onto the band Whisper listens to. So: a windowed-sinc low-pass resampler
// (Blackman window, 16 zero crossings, cutoff 0.95 of the lower Nyquist), streaming, so an hour
// of audio is resampled as it is decoded.

import { NeuralCutError } from "../errors.js";

export const WHISPER_RATE = 16_000;

const ZEROS = 16;
const ROLLOFF = 0.95;
/** Phase tables past this many phases are quantized to it (1/1024 of an input sample). */
const MAX_PHASES = 1024;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** Streams audio at `from` Hz to `to` Hz (integer rates). push() returns what is ready. */
export class Resampler {
  readonly #up: number;
  readonly #down: number;
  readonly #half: number;
  readonly #phases: number;
  readonly #taps: Float32Array;
  #input = new Float32Array(0);
  /** Absolute index of #input[0]. */
  #base = 0;
  /** Input frames seen, and the next output frame. */
  #seen = 0;
  #next = 0;

  constructor(
    readonly from: number,
    readonly to: number = WHISPER_RATE,
  ) {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from <= 0 || to <= 0)
      throw new NeuralCutError("INVALID_OPTIONS", `sample rates must be positive integers (${from}, ${to})`);
    const g = gcd(from, to);
    this.#up = to / g;
    this.#down = from / g;
    // Cutoff in cycles per input sample, doubled: 1 is the input's Nyquist.
    const band = Math.min(1, to / from) * ROLLOFF;
    this.#half = Math.ceil(ZEROS / band);
    this.#phases = Math.min(this.#up, MAX_PHASES);
    const width = 2 * this.#half;
    this.#taps = new Float32Array(this.#phases * width);
    for (let k = 0; k < this.#phases; k++) {
      const frac = k / this.#phases;
      let sum = 0;
      for (let d = 0; d < width; d++) {
        const t = d - this.#half + 1 - frac;
        const x = t / (ZEROS / band);
        const w = Math.abs(x) >= 1 ? 0 : 0.42 + 0.5 * Math.cos(Math.PI * x) + 0.08 * Math.cos(2 * Math.PI * x);
        const s = t === 0 ? 1 : Math.sin(Math.PI * band * t) / (Math.PI * band * t);
        const v = band * s * w;
        this.#taps[k * width + d] = v;
        sum += v;
      }
      // Unity gain at DC for every phase.
      for (let d = 0; d < width; d++) this.#taps[k * width + d] /= sum;
    }
  }

  /** Adds input frames; returns the output frames they complete. */
  push(input: Float32Array): Float32Array {
    const kept = this.#input;
    const joined = new Float32Array(kept.length + input.length);
    joined.set(kept);
    joined.set(input, kept.length);
    this.#input = joined;
    this.#seen += input.length;
    return this.#drain(false);
  }

  /** The remaining output frames (the input's end padded with silence). */
  flush(): Float32Array {
    return this.#drain(true);
  }

  #drain(final: boolean): Float32Array {
    const up = this.#up;
    const down = this.#down;
    const half = this.#half;
    const width = 2 * half;
    const taps = this.#taps;
    const input = this.#input;
    const base = this.#base;
    // Outputs this call can make: all that are left when flushing, else those whose taps are in.
    const last = final ? Math.ceil((this.#seen * up) / down) : Math.floor(((this.#seen - half) * up) / down) + 1;
    const out = new Float32Array(Math.max(0, last - this.#next));
    let made = 0;
    for (let j = this.#next; j < last; j++) {
      const pos = j * down;
      let n = Math.floor(pos / up);
      let k = pos - n * up;
      if (this.#phases !== up) {
        k = Math.round((k / up) * this.#phases);
        if (k === this.#phases) {
          k = 0;
          n += 1;
        }
      }
      const first = n - half + 1 - base;
      if (!final && first + width > input.length) break;
      // Only the taps over input that exists (the edges read silence).
      const lo = Math.max(0, -first);
      const hi = Math.min(width, input.length - first);
      const row = k * width;
      let acc = 0;
      for (let d = lo; d < hi; d++) acc += input[first + d] * taps[row + d];
      out[made++] = acc;
    }
    this.#next += made;
    // Drop the input no later output reads.
    const need = Math.floor((this.#next * down) / up) - half;
    const drop = Math.max(0, Math.min(input.length, need - base));
    if (drop > 0) {
      this.#input = input.slice(drop);
      this.#base = base + drop;
    }
    return made === out.length ? out : out.slice(0, made);
  }
}

/** `input` at `from` Hz as `to` Hz, in one call. */
export function resample(input: Float32Array, from: number, to: number = WHISPER_RATE): Float32Array {
  if (from === to) return input.slice();
  const r = new Resampler(from, to);
  return concat([r.push(input), r.flush()]);
}

/** One buffer of several. */
export function concat(parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Planar channels averaged into one (as ffmpeg's -ac 1 does for stereo). */
export function downmix(planes: Float32Array[]): Float32Array {
  if (planes.length === 1) return planes[0].slice();
  const out = new Float32Array(planes[0].length);
  for (const p of planes) for (let i = 0; i < out.length; i++) out[i] += p[i];
  for (let i = 0; i < out.length; i++) out[i] /= planes.length;
  return out;
}

// Audio played faster or slower at its own pitch, for a retimed clip with `maintainPitch`
// (OpenCut's speed panel option): SoundTouch's time stretch (WSOLA), through soundtouchjs, the
// library and settings OpenCut's retime/audio-stretch.ts uses (tempo = rate, pitch 1). Run on
// plain sample arrays, so the same code serves the export and a test in Node.
import { SimpleFilter, SoundTouch } from "soundtouchjs";

/** Source seconds fed before the span and dropped after, so each export window starts with the
 * stretch already settled (SoundTouch's sequences are up to 125 ms). */
export const STRETCH_PREROLL = 0.25;

/**
 * `length` frames of `channels` (one or two, at one sample rate) played `tempo` times as fast at
 * the same pitch, from frame `from` of the input. Past the input's end the source is silence, so
 * the last sequence is flushed instead of dropped (PitchShifter stops short of it).
 */
export function stretchKeepingPitch(channels: readonly Float32Array[], from: number, tempo: number, length: number): Float32Array<ArrayBuffer>[] {
  const [left, right = left] = channels;
  const source = {
    // SimpleFilter's source: interleaved stereo frames from `position`, zeros past the end.
    extract(target: Float32Array, frames: number, position: number): number {
      for (let i = 0; i < frames; i++) {
        const at = from + position + i;
        target[2 * i] = at < left.length ? left[at] : 0;
        target[2 * i + 1] = at < right.length ? right[at] : 0;
      }
      return frames;
    },
  };
  const pipe = new SoundTouch();
  pipe.tempo = tempo;
  pipe.pitch = 1;
  const filter = new SimpleFilter(source, pipe);
  const interleaved = new Float32Array(length * 2);
  for (let done = 0; done < length; ) {
    const chunk = Math.min(4096, length - done);
    const got = filter.extract(interleaved.subarray(done * 2), chunk);
    if (got === 0) break;
    done += got;
  }
  const out = channels.map(() => new Float32Array(length));
  for (let i = 0; i < length; i++) {
    out[0][i] = interleaved[2 * i];
    if (out[1]) out[1][i] = interleaved[2 * i + 1];
  }
  return out;
}

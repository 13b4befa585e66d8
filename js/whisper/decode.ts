// An asset's sound as mono chunks at its own rate, decoded with mediabunny (WebCodecs in a page,
// PCM anywhere, Node included), as detect_silences decodes it. Resampling to Whisper's 16 kHz
// happens where Whisper runs (the worker), so the page only decodes and averages channels.
import type { Source } from "mediabunny";
import { asNeuralCutError, NeuralCutError } from "../errors.js";
import type { Mediabunny } from "../media/target.js";
import { downmix, Resampler, concat } from "./resample.js";

/** Calls `onChunk` with each decoded chunk averaged to mono; resolves to the rate and duration. */
export async function decodeMono(
  mediabunny: Mediabunny,
  source: Source,
  onChunk: (mono: Float32Array, rate: number) => void,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<{ rate: number; duration: number }> {
  const { ALL_FORMATS, AudioSampleSink, Input } = mediabunny;
  const input = new Input({ source, formats: ALL_FORMATS });
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track) throw new NeuralCutError("DECODE_FAILED", "the media has no audio track");
    if (!(await track.canDecode())) throw new NeuralCutError("DECODE_FAILED", `this runtime cannot decode its ${track.codec ?? "unknown"} audio`);
    const duration = await track.computeDuration();
    let rate = 0;
    let frames = 0;
    for await (const sample of new AudioSampleSink(track).samples()) {
      try {
        if (options.signal?.aborted) throw options.signal.reason;
        if (!rate) {
          rate = sample.sampleRate;
          // Times are the media's: sound that starts late starts after silence.
          const lead = Math.round(sample.timestamp * rate);
          if (lead > 0) {
            frames += lead;
            onChunk(new Float32Array(lead), rate);
          }
        } else if (sample.sampleRate !== rate) throw new NeuralCutError("DECODE_FAILED", `the audio changes rate (${rate} to ${sample.sampleRate} Hz)`);
        // Frames before 0 (an encoder's priming) are not the media's.
        const skip = Math.min(sample.numberOfFrames, Math.max(0, Math.round(-sample.timestamp * rate)));
        const n = sample.numberOfFrames - skip;
        if (n <= 0) continue;
        const planes = Array.from({ length: sample.numberOfChannels }, (_, c) => {
          const plane = new Float32Array(n);
          sample.copyTo(plane, { planeIndex: c, format: "f32-planar", frameOffset: skip, frameCount: n });
          return plane;
        });
        frames += n;
        onChunk(downmix(planes), rate);
        if (duration > 0) options.onProgress?.(Math.min(1, sample.timestamp / duration));
      } finally {
        sample.close();
      }
    }
    return { rate, duration: rate ? frames / rate : 0 };
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw asNeuralCutError(e, "DECODE_FAILED", "cannot decode the audio: ");
  } finally {
    input.dispose();
  }
}

/** The source's sound as one 16 kHz mono buffer (the in-thread path and the tests). */
export async function decode16k(
  mediabunny: Mediabunny,
  source: Source,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {},
): Promise<{ audio: Float32Array; rate: number }> {
  const parts: Float32Array[] = [];
  let resampler: Resampler | undefined;
  const { rate } = await decodeMono(
    mediabunny,
    source,
    (mono, r) => {
      resampler ??= new Resampler(r);
      parts.push(resampler.push(mono));
    },
    options,
  );
  if (resampler) parts.push(resampler.flush());
  return { audio: concat(parts), rate };
}

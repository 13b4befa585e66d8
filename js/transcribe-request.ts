// What transcribe_video asks a host's transcriber (the agent's `transcriber`, neuralcut/whisper's
// createWhisperTranscriber): one home, so the Whisper typings need not pull in the agent's.
import type { AssetJson, AssetSource } from "./types.js";

export interface TranscribeRequest {
  asset: AssetJson;
  source: AssetSource;
  language?: string;
  modelId?: string;
  signal?: AbortSignal;
  /** How far it is, 0..1 (the agent shows it as the asset's transcription progress), and
   * "loading" while its model loads. */
  onProgress?: (fraction: number, phase?: "loading") => void;
}

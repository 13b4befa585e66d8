// transcribe_video with local Whisper for a Node session (`neuralcut mcp --whisper <dir>`): the
// tool of js/agent/transcribe.ts over the session's editor, its transcriber reading each asset's
// file where the other media tools find it (mediaLocations). Node decodes PCM (WAV) only: other
// codecs are refused as DECODE_FAILED details (no headless page is started for them).
import { readFile } from "node:fs/promises";
import { createTranscribeTool, type HostTool } from "../agent/transcribe.js";
import { NeuralCutError } from "../errors.js";
import { mediaLocations, type PreviewEditor } from "../render-headless.js";
import type { NeuralCutEditor } from "../editor.js";
import { createWhisperTranscriber, type WhisperOptions, type WhisperTranscriber } from "./index.js";

export function sessionTranscribeTool(
  editor: PreviewEditor,
  options: WhisperOptions & { projectDir?: string; paths: ReadonlyMap<string, string> },
): { tool: HostTool; close(): Promise<void> } {
  const { projectDir, paths, ...whisper } = options;
  const transcriber: WhisperTranscriber = createWhisperTranscriber(whisper);
  const tool = createTranscribeTool({
    editor: editor as unknown as NeuralCutEditor,
    model: "",
    transcriber: async (request) => {
      const where = mediaLocations(editor, editor.project(), { projectDir, paths }).get(request.asset.id);
      if (!where || !(where.startsWith("/") || where.startsWith("file://")))
        throw new NeuralCutError("DECODE_FAILED", `asset ${request.asset.id} has no local file`);
      // The whole file in memory (an hour of 48 kHz stereo WAV is 690 MB): the decoder reads a Blob.
      const file = new Blob([(await readFile(where.startsWith("file://") ? decodeURIComponent(new URL(where).pathname) : where)) as Uint8Array<ArrayBuffer>]);
      return transcriber({ ...request, source: { file } });
    },
  });
  return { tool, close: () => transcriber.dispose() };
}

// Type-checked (never run) by typings.test.mjs with `tsc --noEmit` against the shipped
// dist/index.d.ts (and dist/export.d.ts, dist/whisper/index.d.ts). Every `@ts-expect-error` line must be an error, or tsc fails.
import {
  createEditor,
  isToolError,
  NeuralCutError,
  TICKS_PER_SECOND,
  TOOL_NAMES,
  type AssetJson,
  type BlendMode,
  type ChangeEvent,
  type ErrorCode,
  type Editor,
  type ProjectJson,
  type SplitArgs,
  type SplitResult,
  type ToolArgsMap,
  type ToolErrorResult,
  type ToolInfo,
  type ToolName,
  type ToolResultMap,
} from "../../dist/index.js";
import { exportVideo, type ExportResult } from "../../dist/export.js";
import { createWhisperTranscriber, type DeviceChoice, type TranscriberProgress, type WhisperTranscriber } from "../../dist/whisper/index.js";

export async function usage(): Promise<void> {
  const editor: Editor = await createEditor({ project: undefined });
  const ticks: number = TICKS_PER_SECOND;
  const names: readonly ToolName[] = TOOL_NAMES;

  const id: string = editor.addAsset({ name: "clip.mp4", type: "video", duration: 5, fps: { numerator: 30, denominator: 1 } });
  // @ts-expect-error the asset type is one of video, audio, image
  editor.addAsset({ name: "clip.gif", type: "gif" });
  // @ts-expect-error name is required
  editor.addAsset({ type: "video" });
  editor.addSticker({ id: "emoji:star", name: "Star" });

  // Arguments are checked per tool.
  const split = await editor.callTool("split", { times: [1] });
  // @ts-expect-error split takes times, not time
  await editor.callTool("split", { time: 1 });
  // @ts-expect-error times is required
  await editor.callTool("split", {});
  // @ts-expect-error times holds numbers
  await editor.callTool("split", { times: ["1"] });
  // @ts-expect-error split needs arguments
  await editor.callTool("split");
  // @ts-expect-error no such tool
  await editor.callTool("splt", { times: [1] });
  // @ts-expect-error list_timeline takes no arguments
  await editor.callTool("list_timeline", { verbose: true });
  // @ts-expect-error position is top, center or bottom
  await editor.callTool("add_text", { text: "Hi", start: 0, end: 1, position: "left" });
  await editor.callTool("list_timeline");
  await editor.callTool("list_project_assets", { filter: "unused" });
  await editor.callTool("add_media_to_timeline", { assetId: id, startTime: 0, trackType: "main" });
  await editor.callTool("apply_effect", { effectType: "blur", start: 0, end: 1, params: { intensity: 10 } });
  await editor.callTool("batch", { steps: [{ tool: "split", args: { times: [2] } }] });

  // Results are typed per tool, and errors are narrowed with isToolError.
  if (isToolError(split)) {
    const e: ToolErrorResult = split;
    const message: string = e.error;
    const code: string = e.code;
    void message;
    void code;
  } else {
    const ok: SplitResult = split;
    const affected: string[] = ok.affectedElements;
    // @ts-expect-error a split result has no tracks
    ok.tracks;
    void affected;
  }
  const timeline = await editor.callTool("list_timeline");
  if (!isToolError(timeline)) {
    const first: string | undefined = timeline.tracks[0]?.elements[0]?.elementId;
    void first;
  }

  const args: SplitArgs = { times: [1, 2] };
  const map: ToolArgsMap["split"] = args;
  const result: ToolResultMap["undo"] | undefined = undefined;
  const dynamic: Record<string, unknown> = await editor.callToolUntyped("some_tool_from_an_llm", { any: "thing" });

  const undone: boolean = editor.undo();
  const redone: boolean = editor.redo();
  const canUndo: boolean = editor.canUndo();
  const project: ProjectJson = editor.project();
  const again: Editor = await createEditor({ project });
  const tools: ToolInfo[] = again.tools();
  const toolName: ToolName = tools[0]!.name;
  const off: () => void = editor.onChange((event: ChangeEvent) => {
    const revision: number = event.revision;
    void revision;
  });
  off();
  editor.setContextProvider({
    supportedTypes: ["video"],
    async load(request) {
      const assetName: string = request.asset.name;
      const file: Blob | undefined = request.source.file;
      void assetName;
      void file;
      return { fileUri: "files/1", status: "active" };
    },
  });
  // @ts-expect-error a provider must return a report with fileUri and status
  editor.setContextProvider({ load: async () => ({ uri: "x" }) });
  try {
    editor.addAsset({ name: "", type: "video" });
  } catch (e) {
    if (e instanceof NeuralCutError) {
      // code is the ErrorCode union generated from src/error_code.rs, not any string.
      const code: ErrorCode = e.code;
      const known: boolean = e.code === "INVALID_ASSET" || e.code === "RATE_LIMITED";
      // @ts-expect-error a code outside ERROR_CODES
      const unknown: boolean = e.code === "NOT_A_CODE";
      void [code, known, unknown];
    }
  }
  // neuralcut/export takes the editor as it is typed; its options and result are typed too.
  const exported: ExportResult = await exportVideo(editor, { format: "webm", width: 1280, onProgress: (p) => void p.framesDone });
  // The frame and the project are the types generated from the Rust ones.
  const frame = editor.frameAt(0);
  const layer = frame?.layers[0];
  if (layer?.kind === "media") {
    const mode: BlendMode = layer.blendMode;
    const centre: number | undefined = layer.placement?.centerX;
    // @ts-expect-error a media layer has no text
    layer.content;
    void [mode, centre];
  }
  // @ts-expect-error a blend mode is one of OpenCut's
  const badMode: BlendMode = "burn";
  const asset: AssetJson | undefined = project.assets?.[0];
  const rate: number | undefined = asset?.fps?.numerator;
  void [badMode, rate];
  const plan = editor.audioPlan(0, 2);
  const gains: number[] | undefined = plan?.clips[0]?.gains;
  // @ts-expect-error format is mp4 or webm
  await exportVideo(editor, { format: "mov" });
  // Local transcription: its typings stand without @huggingface/transformers' own.
  const whisper: WhisperTranscriber = createWhisperTranscriber({
    modelPath: "/models/",
    model: "whisper-tiny",
    device: "auto",
    dtype: { encoder_model: "fp32", decoder_model_merged: "q8" },
    onProgress: (p: TranscriberProgress) => void [p.overall, p.phase],
  });
  const chosen: DeviceChoice | undefined = whisper.device();
  // @ts-expect-error a device is auto, webgpu, wasm or cpu
  createWhisperTranscriber({ device: "tpu" });
  void [ticks, names, map, result, dynamic, undone, redone, canUndo, toolName, exported, gains, chosen];
}

// The demo project: the sample media in demo/media/ laid out on a timeline with the same tools
// an agent uses. It is built on a scratch editor and loaded into a fresh one, so the page starts
// with an empty undo history.
import { createEditor } from "neuralcut";

/** The sample media (see demo/media/README.md). Durations and sizes match the files. */
export const SAMPLE_ASSETS = [
  { key: "clip", name: "clip.webm", type: "video", duration: 6, width: 480, height: 270, fps: 30, url: "/media/clip.webm" },
  { key: "still", name: "still.jpg", type: "image", width: 640, height: 360, url: "/media/still.jpg" },
  { key: "tone", name: "tone.ogg", type: "audio", duration: 8, url: "/media/tone.ogg" },
];

export const SAMPLE_STICKERS = [{ id: "demo:star", name: "Star", url: "/media/star.svg" }];

/**
 * Creates the editor holding the demo project. Resolves to { editor, sources } where sources
 * maps each asset id to { url } (a loaded project carries no media handles).
 */
export async function createDemoEditor(options = {}) {
  const scratch = await createEditor();
  const ids = {};
  for (const { key, url, ...asset } of SAMPLE_ASSETS) ids[key] = scratch.addAsset({ ...asset, url });
  for (const sticker of SAMPLE_STICKERS) scratch.addSticker(sticker);
  const steps = [
    { tool: "add_media_to_timeline", args: { assetId: ids.clip, startTime: 0, trackType: "main" } },
    { tool: "add_media_to_timeline", args: { assetId: ids.still, startTime: 6, trackType: "main", duration: 4 } },
    { tool: "add_media_to_timeline", args: { assetId: ids.tone, startTime: 0, trackType: "audio" } },
    { tool: "add_text", args: { text: "NeuralCut demo", start: 0, end: 3, position: "top", style: "hook" } },
    { tool: "add_text", args: { text: "Split it, undo it, add effects", start: 3.5, end: 6, position: "bottom", style: "subtitle" } },
    { tool: "add_text", args: { text: "A still image", start: 6.5, end: 9.5, position: "center", style: "label" } },
    { tool: "add_sticker", args: { stickerId: "demo:star", start: 1, end: 5, position: "top-right" } },
    { tool: "apply_effect", args: { effectType: "vignette", start: 6, end: 10, params: { radius: 45, softness: 40 } } },
  ];
  const result = await scratch.callTool("batch", { steps });
  if (result && typeof result.error === "string") throw new Error(`demo project: ${result.error}`);
  const project = scratch.project();
  scratch.dispose();
  const editor = await createEditor({ ...options, project });
  const sources = new Map(SAMPLE_ASSETS.map((a) => [ids[a.key], { url: a.url }]));
  return { editor, sources };
}

// The project `neuralcut mcp --demo` opens: a small laid-out timeline with a title, a colour
// effect, a logo overlay, two video clips and music. Assets are metadata only (no media bytes
// ship with the package), which is all the engine's tools need. Times are ticks (120 000/s).
import { TICKS_PER_SECOND as S } from "../generated/tools.js";
import type { ProjectJson } from "../types.js";

export const DEMO_PROJECT: ProjectJson = {
  format: "neuralcut-project",
  version: 1,
  settings: { fps: { numerator: 30, denominator: 1 }, canvas: { width: 1920, height: 1080 } },
  assets: [
    { id: "a1", name: "beach.mp4", type: "video", duration: 12, width: 1920, height: 1080, fps: { numerator: 30, denominator: 1 } },
    { id: "a2", name: "city.mp4", type: "video", duration: 8, width: 1920, height: 1080, fps: { numerator: 30, denominator: 1 } },
    { id: "a3", name: "logo.png", type: "image", width: 512, height: 512 },
    { id: "a4", name: "music.mp3", type: "audio", duration: 40 },
    { id: "a5", name: "voiceover.wav", type: "audio", duration: 9 },
  ],
  stickers: [{ id: "emoji:star", name: "Star" }],
  timeline: {
    tracks: [
      { id: "t10", type: "text", elements: [
        { id: "e20", type: "text", name: "Summer in the city", start: 0, duration: 3 * S, content: "Summer in the city", style: "hook", position: "top", x: 0, y: -378, fontSize: 80, color: "#ffffff", fontWeight: "bold" },
      ] },
      { id: "t11", type: "effect", elements: [
        { id: "e21", type: "effect", name: "Sepia", start: 10 * S, duration: 4 * S, effectType: "sepia", params: { intensity: 60 } },
      ] },
      { id: "t12", type: "overlay", elements: [
        { id: "e22", type: "image", name: "logo.png", start: 1 * S, duration: 4 * S, assetId: "a3" },
      ] },
      { id: "t13", type: "main", name: "Main", elements: [
        { id: "e23", type: "video", name: "beach.mp4", start: 0, duration: 10 * S, trimStart: 1 * S, trimEnd: 1 * S, assetId: "a1" },
        { id: "e24", type: "video", name: "city.mp4", start: 10 * S, duration: 8 * S, assetId: "a2" },
      ] },
      { id: "t14", type: "audio", elements: [
        { id: "e25", type: "audio", name: "music.mp3", start: 0, duration: 18 * S, trimEnd: 22 * S, assetId: "a4", volume: 0.6 },
      ] },
    ],
  },
  nextId: 30,
};

// The project `neuralcut mcp --demo` (and the CLI's `--demo`) opens: the demo page's timeline
// (demo/project.js) over the package's sample media in demo/media/ (made by make-media.sh,
// CC0): a test-pattern clip then a still on the main track, a star logo overlay, three titles,
// a vignette over the still, and a tone. The session points each asset at its file
// (DEMO_MEDIA), so render_preview draws real video frames. Times are ticks (120 000/s).
import { TICKS_PER_SECOND as S } from "../generated/tools.js";
import type { ProjectJson } from "../types.js";

/** The sample file of each demo asset, in the package's demo/media/ folder. */
export const DEMO_MEDIA: Readonly<Record<string, string>> = { a1: "clip.webm", a2: "still.jpg", a3: "star.svg", a4: "tone.ogg" };

export const DEMO_PROJECT: ProjectJson = {
  format: "neuralcut-project",
  version: 1,
  settings: { fps: { numerator: 30, denominator: 1 }, canvas: { width: 1920, height: 1080 } },
  assets: [
    { id: "a1", name: "clip.webm", type: "video", duration: 6, width: 480, height: 270, fps: { numerator: 30, denominator: 1 } },
    { id: "a2", name: "still.jpg", type: "image", width: 640, height: 360 },
    { id: "a3", name: "star.svg", type: "image", width: 128, height: 128 },
    { id: "a4", name: "tone.ogg", type: "audio", duration: 8 },
  ],
  stickers: [{ id: "emoji:star", name: "Star" }],
  timeline: {
    tracks: [
      {
        id: "t10",
        type: "text",
        elements: [
          {
            id: "e20",
            type: "text",
            name: "NeuralCut demo",
            start: 0,
            duration: 3 * S,
            content: "NeuralCut demo",
            style: "hook",
            position: "top",
            x: 0,
            y: -378,
            fontSize: 80,
            color: "#ffffff",
            fontWeight: "bold",
          },
          {
            id: "e26",
            type: "text",
            name: "Split it, undo it, add effects",
            start: 3.5 * S,
            duration: 2.5 * S,
            content: "Split it, undo it, add effects",
            style: "subtitle",
            position: "bottom",
            x: 0,
            y: 378,
            fontSize: 44,
            color: "#ffffff",
            fontWeight: "normal",
            background: "rgba(0,0,0,0.6)",
          },
          {
            id: "e27",
            type: "text",
            name: "A still image",
            start: 6.5 * S,
            duration: 3 * S,
            content: "A still image",
            style: "label",
            position: "center",
            x: 0,
            y: 0,
            fontSize: 32,
            color: "#000000",
            fontWeight: "bold",
            background: "#ffffff",
          },
        ],
      },
      {
        id: "t11",
        type: "effect",
        elements: [
          { id: "e21", type: "effect", name: "Vignette", start: 6 * S, duration: 4 * S, effectType: "vignette", params: { radius: 45, softness: 40 } },
        ],
      },
      {
        id: "t12",
        type: "overlay",
        elements: [
          // 128² fitted to the 1080-pixel height, × 0.15: a 162-pixel star at the top right.
          {
            id: "e22",
            type: "image",
            name: "star.svg",
            start: 1 * S,
            duration: 4 * S,
            assetId: "a3",
            position: "top-right",
            x: 798,
            y: -378,
            scaleX: 0.15,
            scaleY: 0.15,
          },
        ],
      },
      {
        id: "t13",
        type: "main",
        name: "Main",
        elements: [
          { id: "e23", type: "video", name: "clip.webm", start: 0, duration: 6 * S, assetId: "a1" },
          { id: "e24", type: "image", name: "still.jpg", start: 6 * S, duration: 4 * S, assetId: "a2" },
        ],
      },
      { id: "t14", type: "audio", elements: [{ id: "e25", type: "audio", name: "tone.ogg", start: 0, duration: 8 * S, assetId: "a4" }] },
    ],
  },
  nextId: 30,
};

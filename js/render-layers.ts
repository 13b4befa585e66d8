// The frame's background colour and the contain fit of a media layer whose size only its picture
// tells (a graphic's shape is drawn by render-graphic.ts).
import type { Frame, FramePlacement, MediaFrameLayer } from "./generated/tools.js";
import { placeLayerJson } from "./wasm/neuralcut_engine.js";

/** `#rgb`, `#rrggbb`, `#rrggbbaa` or any CSS colour (through a 2D context) → 0–1 RGBA. */
export function parseColour(css: string): [number, number, number, number] {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(css.trim());
  if (hex) {
    let h = hex[1];
    if (h.length === 3) h = [...h].map((c) => c + c).join("");
    const n = (i: number) => parseInt(h.slice(i, i + 2), 16) / 255;
    return [n(0), n(2), n(4), h.length === 8 ? n(6) : 1];
  }
  const ctx = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
  if (!ctx) return [0, 0, 0, 1];
  ctx.fillStyle = css;
  ctx.fillRect(0, 0, 1, 1);
  const d = ctx.getImageData(0, 0, 1, 1).data;
  return [d[0] / 255, d[1] / 255, d[2] / 255, d[3] / 255];
}

/** OpenCut's contain fit for a source whose size only the picture tells: src/frame.rs `place`,
 * through the engine (loaded with the editor whose frame this is). */
export function placeLayer(layer: MediaFrameLayer, frame: Frame, sw: number, sh: number): FramePlacement {
  return JSON.parse(placeLayerJson(JSON.stringify(layer.transform), frame.width, frame.height, sw, sh)) as FramePlacement;
}

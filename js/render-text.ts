// Text layers as OpenCut's text node draws them: the block's layout in its own units, its box in
// target pixels, and the drawing onto a 2D canvas (the renderer uploads that canvas as a layer).
import type { TextFrameLayer } from "./generated/tools.js";

/** A text block laid out in its own units (origin at the anchor, before scale and rotation). */
export interface TextLayout {
  font: string;
  align: CanvasTextAlign;
  lines: string[];
  widths: number[];
  lineHeight: number;
  left: number;
  top: number;
  blockWidth: number;
  blockHeight: number;
  /** Each line's decoration bar (top, thickness) from its middle, or null. */
  bars: ([number, number] | null)[];
  /** Everything that gets paint: glyph boxes, background, decoration bars. */
  bounds: [number, number, number, number];
}

/** OpenCut's drawTextDecoration (text/layout.ts): 7 % of the size thick (at least 1 px), the
 * underline one thickness below the line's descent, the strike-through 35 % of (ascent − descent)
 * above the middle. `y` is the line's middle; returns the bar's top and thickness. */
function bar(t: TextFrameLayer, m: TextMetrics, y: number): [number, number] | null {
  const thickness = Math.max(1, t.fontSize * 0.07);
  const ascent = m.actualBoundingBoxAscent ?? t.fontSize * 0.8;
  const descent = m.actualBoundingBoxDescent ?? t.fontSize * 0.2;
  if (t.textDecoration === "underline") return [y + descent + thickness, thickness];
  if (t.textDecoration === "line-through") return [y - (ascent - descent) * 0.35, thickness];
  return null;
}

/** Sets the layer's font on `ctx` and lays the block out as OpenCut's text node does. */
export function layoutText(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer): TextLayout {
  const size = t.fontSize;
  const family = /[\s,"']/.test(t.fontFamily) && !/^["']/.test(t.fontFamily) ? `"${t.fontFamily}"` : t.fontFamily;
  const font = `${t.fontStyle === "italic" ? "italic " : ""}${t.fontWeight === "bold" ? "bold " : ""}${size}px ${family}, sans-serif`;
  setFont(ctx, t, font);
  const align: CanvasTextAlign = t.textAlign === "left" ? "left" : t.textAlign === "right" ? "right" : "center";
  const lines = t.content.split("\n");
  const lineHeight = size * t.lineHeight;
  const metrics = lines.map((l) => ctx.measureText(l));
  const widths = metrics.map((m) => m.width);
  const blockWidth = Math.max(0, ...widths);
  const blockHeight = lines.length * lineHeight;
  // The anchor is the block's left edge, centre or right edge, vertically centred.
  const left = align === "left" ? 0 : align === "right" ? -blockWidth : -blockWidth / 2;
  const top = -blockHeight / 2;
  const b: [number, number, number, number] = [left, top, left + blockWidth, top + blockHeight];
  const grow = (x0: number, y0: number, x1: number, y1: number) => {
    b[0] = Math.min(b[0], x0);
    b[1] = Math.min(b[1], y0);
    b[2] = Math.max(b[2], x1);
    b[3] = Math.max(b[3], y1);
  };
  const bars = metrics.map((m, i) => {
    const y = top + (i + 0.5) * lineHeight;
    grow(-m.actualBoundingBoxLeft, y - m.actualBoundingBoxAscent, m.actualBoundingBoxRight, y + m.actualBoundingBoxDescent);
    const d = bar(t, m, y);
    if (d) grow(b[0], d[0], b[2], d[0] + d[1]);
    return d;
  });
  if (t.background) {
    const bg = t.background;
    const x = left - bg.paddingX + bg.offsetX;
    const y = top - bg.paddingY + bg.offsetY;
    grow(x, y, x + blockWidth + 2 * bg.paddingX, y + blockHeight + 2 * bg.paddingY);
  }
  return { font, align, lines, widths, lineHeight, left, top, blockWidth, blockHeight, bars, bounds: b };
}

function setFont(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer, font: string) {
  ctx.font = font;
  (ctx as unknown as { letterSpacing: string }).letterSpacing = `${t.letterSpacing}px`;
  ctx.textBaseline = "middle";
  ctx.textAlign = t.textAlign === "left" ? "left" : t.textAlign === "right" ? "right" : "center";
}

/** The layer's paint in target pixels: the box around its transformed bounds, whole pixels,
 * two pixels of margin for antialiasing, cut to the `width × height` target. Null if empty. */
export function textBox(
  t: TextFrameLayer,
  layout: TextLayout,
  scale: number,
  width: number,
  height: number,
): { x: number; y: number; w: number; h: number } | null {
  const [x0, y0, x1, y1] = layout.bounds;
  const r = ((t.transform.rotation || 0) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(r), Math.sin(r)];
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of [
    [x0, y0],
    [x1, y0],
    [x0, y1],
    [x1, y1],
  ]) {
    // drawText's transform: scale · (anchor + S · R · p).
    const px = scale * (t.anchorX + t.transform.scaleX * (x * cos - y * sin));
    const py = scale * (t.anchorY + t.transform.scaleY * (x * sin + y * cos));
    [minX, minY, maxX, maxY] = [Math.min(minX, px), Math.min(minY, py), Math.max(maxX, px), Math.max(maxY, py)];
  }
  const bx = Math.max(0, Math.floor(minX) - 2);
  const by = Math.max(0, Math.floor(minY) - 2);
  const ex = Math.min(width, Math.ceil(maxX) + 2);
  const ey = Math.min(height, Math.ceil(maxY) + 2);
  if (!(ex > bx && ey > by)) return null;
  return { x: bx, y: by, w: ex - bx, h: ey - by };
}

/** Draws a text layer the way OpenCut's text node does, onto a 2D canvas whose (0, 0) is target pixel (ox, oy). */
export function drawText(ctx: OffscreenCanvasRenderingContext2D, t: TextFrameLayer, layout: TextLayout, scale: number, ox: number, oy: number) {
  const { align, lines, widths, lineHeight, left, top, blockWidth, blockHeight, bars } = layout;
  ctx.save();
  ctx.translate(-ox, -oy);
  ctx.scale(scale, scale);
  ctx.translate(t.anchorX, t.anchorY);
  ctx.scale(t.transform.scaleX, t.transform.scaleY);
  if (t.transform.rotation) ctx.rotate((t.transform.rotation * Math.PI) / 180);
  setFont(ctx, t, layout.font);
  if (t.background) {
    const b = t.background;
    const w = blockWidth + 2 * b.paddingX;
    const h = blockHeight + 2 * b.paddingY;
    const x = left - b.paddingX + b.offsetX;
    const y = top - b.paddingY + b.offsetY;
    const r = (Math.min(w, h) / 2) * (b.cornerRadius / 100);
    ctx.fillStyle = b.color;
    ctx.beginPath();
    if (r > 0 && typeof ctx.roundRect === "function") ctx.roundRect(x, y, w, h, r);
    else ctx.rect(x, y, w, h);
    ctx.fill();
  }
  ctx.fillStyle = t.color;
  lines.forEach((line, i) => {
    const y = top + (i + 0.5) * lineHeight;
    ctx.fillText(line, 0, y);
    const d = bars[i];
    if (d) {
      const w = widths[i];
      ctx.fillRect(align === "left" ? 0 : align === "right" ? -w : -w / 2, d[0], w, d[1]);
    }
  });
  ctx.restore();
}

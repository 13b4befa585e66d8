// OpenCut's graphics drawn as OpenCut draws them (graphics/definitions/*.ts and graphics/stroke.ts
// at cf5e79e): each shape into a 512 × 512 source, filled, then outlined inside, on or outside its
// edge. The compositor then fits that source to the canvas like any picture.
import type { FrameGraphic } from "./generated/tools.js";

export const GRAPHIC_SIZE = 512;

type Ctx2D = OffscreenCanvasRenderingContext2D;
type Params = FrameGraphic["params"];

const num = (p: Params, key: string, fallback: number): number => {
  const v = Number(p[key] ?? fallback);
  return Number.isFinite(v) ? v : fallback;
};
const str = (p: Params, key: string, fallback: string): string => String(p[key] ?? fallback);
const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** The source picture of a graphic layer. */
export function drawGraphic(graphic: FrameGraphic): OffscreenCanvas {
  const c = new OffscreenCanvas(GRAPHIC_SIZE, GRAPHIC_SIZE);
  const ctx = c.getContext("2d")!;
  const p = graphic.params;
  const width = Math.max(0, num(p, "strokeWidth", 0));
  const align = str(p, "strokeAlign", "center");
  // A centred outline would stick out by half its width: the shape shrinks by that much.
  const inset = align === "center" ? width / 2 : 0;
  const path = outline(graphic.definitionId, p, inset);
  ctx.fillStyle = str(p, "fill", "#ffffff");
  ctx.fill(path);
  if (width > 0) stroke(ctx, path, width, align, str(p, "stroke", "#000000"));
  return c;
}

/** A cache key: the same key draws the same picture. */
export function graphicKey(graphic: FrameGraphic): string {
  return `graphic ${graphic.definitionId} ${JSON.stringify(graphic.params)}`;
}

function outline(id: string, p: Params, inset: number): Path2D {
  const s = GRAPHIC_SIZE;
  const m = s / 2;
  const path = new Path2D();
  if (id === "ellipse") {
    const r = Math.max(1, m - inset);
    path.ellipse(m, m, r, r, 0, 0, Math.PI * 2);
  } else if (id === "polygon") {
    const sides = clamp(Math.round(num(p, "sides", 5)), 3, 12);
    const r = Math.max(1, m - inset);
    // The rounding is a share of the largest radius a corner of this polygon can take.
    const most = r * Math.sin(Math.PI / sides);
    roundedPolygon(path, corners(m, r, sides, 1), (most * Math.min(Math.max(0, num(p, "cornerRadius", 0)), 50)) / 50);
  } else if (id === "star") {
    const points = clamp(Math.round(num(p, "points", 5)), 3, 12);
    const outer = Math.max(1, m - inset);
    const inner = (outer * clamp(num(p, "depth", 45), 1, 99)) / 100;
    const all = corners(m, outer, points * 2, inner / outer);
    all.forEach(([x, y], i) => (i === 0 ? path.moveTo(x, y) : path.lineTo(x, y)));
    path.closePath();
  } else {
    // rectangle
    const side = Math.max(1, s - inset * 2);
    const radius = ((side / 2) * Math.min(Math.max(0, num(p, "cornerRadius", 0)), 50)) / 50;
    path.roundRect(inset, inset, side, side, radius);
  }
  return path;
}

/** `n` points round the centre from the top, clockwise; every odd one at `ratio` of the radius. */
function corners(m: number, r: number, n: number, ratio: number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = -Math.PI / 2 + (i * Math.PI * 2) / n;
    const ri = i % 2 ? r * ratio : r;
    return [m + Math.cos(a) * ri, m + Math.sin(a) * ri];
  });
}

/** A closed polygon whose corners are arcs of `radius`, each cut short where its sides run out. */
function roundedPolygon(path: Path2D, pts: [number, number][], radius: number): void {
  if (radius <= 0) {
    pts.forEach(([x, y], i) => (i === 0 ? path.moveTo(x, y) : path.lineTo(x, y)));
    path.closePath();
    return;
  }
  const n = pts.length;
  pts.forEach(([x, y], i) => {
    const [px, py] = pts[(i - 1 + n) % n];
    const [nx, ny] = pts[(i + 1) % n];
    const back = Math.hypot(px - x, py - y) || 1;
    const fwd = Math.hypot(nx - x, ny - y) || 1;
    const [bx, by, fx, fy] = [(px - x) / back, (py - y) / back, (nx - x) / fwd, (ny - y) / fwd];
    const angle = Math.acos(clamp(bx * fx + by * fy, -1, 1));
    const room = Math.min(back, fwd) / 2;
    const cut = Math.min(radius / Math.tan(angle / 2), room);
    const [sx, sy] = [x + bx * cut, y + by * cut];
    if (i === 0) path.moveTo(sx, sy);
    else path.lineTo(sx, sy);
    path.arcTo(x, y, x + fx * cut, y + fy * cut, Math.min(radius, room));
  });
  path.closePath();
}

/** OpenCut's aligned stroke: inside is a doubled stroke clipped to the shape; outside a doubled
 * stroke with the shape cut out of it (drawn apart, so a translucent fill shows no inner half). */
function stroke(ctx: Ctx2D, path: Path2D, width: number, align: string, colour: string): void {
  ctx.strokeStyle = colour;
  if (align === "inside") {
    ctx.save();
    ctx.clip(path);
    ctx.lineWidth = width * 2;
    ctx.stroke(path);
    ctx.restore();
    return;
  }
  if (align === "outside") {
    const ring = new OffscreenCanvas(GRAPHIC_SIZE, GRAPHIC_SIZE);
    const r = ring.getContext("2d")!;
    r.strokeStyle = colour;
    r.lineWidth = width * 2;
    r.stroke(path);
    r.globalCompositeOperation = "destination-out";
    r.fill(path);
    ctx.drawImage(ring, 0, 0);
    return;
  }
  ctx.lineWidth = width;
  ctx.stroke(path);
}

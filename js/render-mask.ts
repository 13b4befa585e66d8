// Masks drawn as OpenCut classic draws them (masks/builtin/definitions, masks/freeform, its frame
// descriptor's buildMaskArtifacts and rust/crates/masks at cf5e79e): the shape is a path (a text
// mask: white glyphs) at the element's drawn size in canvas pixels; a feather is a smoothstep
// across the signed distance to the outline, from -feather/2 to +feather/2 (OpenCut finds the
// distance with a jump flood on the GPU, here an exact distance transform); a split's feather is
// a linear ramp across its line; inverted flips it; the picture is kept where the mask is, and
// the outline (strokeWidth) is drawn over the masked picture. Applied to the layer's picture
// before any backend draws it, so Canvas2D, WebGL2 and WebGPU show the same mask.
import { type FrameMask, MASK_TYPES, type TextFrameLayer } from "./generated/tools.js";
import { drawText, layoutText } from "./render-text.js";

type P = Record<string, unknown>;
const num = (p: P, k: string, d = 0) => (typeof p[k] === "number" ? (p[k] as number) : d);
const str = (p: P, k: string, d: string) => (typeof p[k] === "string" ? (p[k] as string) : d);

/** The shapes drawn here: every one of OpenCut's (crate::masks::KINDS, generated). */
export const DRAWN_MASKS: ReadonlySet<string> = new Set(MASK_TYPES);

/** A text mask as the text layer it draws (masks/builtin/definitions/text.ts): white, centred on
 * the mask's centre, OpenCut's size 15 a sixth of the element's height over 90, then scaled and
 * turned about that centre. */
function textLayer(p: P, w: number, h: number): TextFrameLayer {
  const s = num(p, "scale", 1);
  return {
    kind: "text",
    elementId: "",
    trackId: "",
    content: str(p, "content", "Mask"),
    fontFamily: str(p, "fontFamily", "Arial"),
    fontSize: (num(p, "fontSize", 15) * h) / 90,
    fontWeight: str(p, "fontWeight", "normal"),
    fontStyle: str(p, "fontStyle", "normal"),
    color: "#ffffff",
    textAlign: "center",
    textDecoration: str(p, "textDecoration", "none"),
    letterSpacing: num(p, "letterSpacing"),
    lineHeight: num(p, "lineHeight", 1.2),
    anchorX: w / 2 + num(p, "centerX") * w,
    anchorY: h / 2 + num(p, "centerY") * h,
    transform: { x: 0, y: 0, scaleX: s, scaleY: s, rotation: num(p, "rotation") },
    opacity: 1,
    blendMode: "normal",
    effects: [],
  };
}

/** Draws a text mask's glyphs white (fill) or their outline (OpenCut's strokeMeasuredTextLayout:
 * round joins, no decoration) on `ctx`, a `w` × `h` canvas. */
function drawTextMask(ctx: OffscreenCanvasRenderingContext2D, p: P, w: number, h: number, outline: boolean) {
  const t = textLayer(p, w, h);
  const layout = layoutText(ctx, t);
  if (!outline) return drawText(ctx, t, layout, 1, 0, 0);
  ctx.save();
  ctx.translate(t.anchorX, t.anchorY);
  ctx.scale(t.transform.scaleX, t.transform.scaleY);
  if (t.transform.rotation) ctx.rotate((t.transform.rotation * Math.PI) / 180);
  layout.lines.forEach((line, i) => ctx.strokeText(line, 0, layout.top + (i + 0.5) * layout.lineHeight));
  ctx.restore();
}

/** A freeform path (masks/freeform/path.ts buildFreeformPath2D): each point a cubic bezier's
 * anchor, fractions of the box times the mask's scale from its centre, turned about it; the last
 * segment back to the first point when closed. */
function freeformPath(p: P, w: number, h: number): Path2D {
  const path = new Path2D();
  // A scene's odd entry (null, a number) is no point: left out rather than failing the frame.
  const points = (Array.isArray(p.path) ? p.path : []).filter((q) => q !== null && typeof q === "object") as P[];
  if (points.length === 0) return path;
  const [cx, cy, s] = [w / 2 + num(p, "centerX") * w, h / 2 + num(p, "centerY") * h, num(p, "scale", 1)];
  const rad = (num(p, "rotation") * Math.PI) / 180;
  const at = (q: P, dx = "", dy = ""): [number, number] => {
    const x = (num(q, "x") + (dx ? num(q, dx) : 0)) * w * s;
    const y = (num(q, "y") + (dy ? num(q, dy) : 0)) * h * s;
    return [cx + x * Math.cos(rad) - y * Math.sin(rad), cy + x * Math.sin(rad) + y * Math.cos(rad)];
  };
  path.moveTo(...at(points[0]));
  const closed = p.closed === true && points.length > 1;
  const ends = closed ? [...points.slice(1), points[0]] : points.slice(1);
  ends.forEach((q, i) => path.bezierCurveTo(...at(points[i], "outX", "outY"), ...at(q, "inX", "inY"), ...at(q)));
  if (closed) path.closePath();
  return path;
}

function rotate(x: number, y: number, cx: number, cy: number, rad: number): [number, number] {
  const [dx, dy] = [x - cx, y - cy];
  return [cx + dx * Math.cos(rad) - dy * Math.sin(rad), cy + dx * Math.sin(rad) + dy * Math.cos(rad)];
}

function polygon(points: [number, number][]): Path2D {
  const path = new Path2D();
  points.forEach(([x, y], i) => (i ? path.lineTo(x, y) : path.moveTo(x, y)));
  path.closePath();
  return path;
}

/** The shape's outline in a `w` × `h` box, grown by `grow` pixels (a stroke's alignment). */
export function maskPath(mask: FrameMask, w: number, h: number, grow = 0): Path2D {
  const p = mask.params as P;
  if (mask.type === "freeform") return freeformPath(p, w, h);
  const cx = w / 2 + num(p, "centerX") * w;
  const cy = h / 2 + num(p, "centerY") * h;
  const rad = (num(p, "rotation") * Math.PI) / 180;
  const band = mask.type === "cinematic-bars";
  const mw = band ? Math.max(num(p, "width", 1) * w, w) : Math.max(num(p, "width", 0.6), 0.01) * w;
  const mh = Math.max(num(p, "height", 0.6), 0.01) * h;
  const [hw, hh] = [Math.max(mw / 2 + grow, 1), Math.max(mh / 2 + grow, 1)];
  const at = (x: number, y: number) => rotate(cx + x, cy + y, cx, cy, rad);
  switch (mask.type) {
    case "ellipse": {
      const path = new Path2D();
      path.ellipse(cx, cy, hw, hh, rad, 0, Math.PI * 2);
      return path;
    }
    case "diamond":
      return polygon([at(0, -hh), at(hw, 0), at(0, hh), at(-hw, 0)]);
    case "star":
      // Ten vertices, the inner ones at 0.45 of the outer radius, the first at the top.
      return polygon(
        Array.from({ length: 10 }, (_, i) => {
          const r = i % 2 === 0 ? 1 : 0.45;
          const a = (i * Math.PI) / 5 - Math.PI / 2;
          return at(hw * r * Math.cos(a), hh * r * Math.sin(a));
        }),
      );
    case "heart": {
      const [s, c1, c2, b, c3, c4] = [
        at(0, -hh * 0.475),
        at(hw, -hh * 1.225),
        at(hw, -hh * 0.125),
        at(0, hh * 0.725),
        at(-hw, -hh * 0.125),
        at(-hw, -hh * 1.225),
      ];
      const path = new Path2D();
      path.moveTo(...s);
      path.bezierCurveTo(...c1, ...c2, ...b);
      path.bezierCurveTo(...c3, ...c4, ...s);
      path.closePath();
      return path;
    }
    case "split": {
      // The half of the box on the normal's side of the line through the centre.
      const [nx, ny] = [Math.cos(rad), Math.sin(rad)];
      const far = 4 * Math.hypot(w, h);
      const [tx, ty] = [-ny, nx];
      return polygon([
        [cx + tx * far, cy + ty * far],
        [cx + tx * far + nx * far, cy + ty * far + ny * far],
        [cx - tx * far + nx * far, cy - ty * far + ny * far],
        [cx - tx * far, cy - ty * far],
      ]);
    }
    default:
      // rectangle and cinematic-bars: a (rotated) box.
      return polygon([at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)]);
  }
}

/** Squared distances to the nearest set cell along one line (Felzenszwalb and Huttenlocher). */
function distance1d(f: Float64Array, n: number, d: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    let s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (f[q] + q * q - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    d[q] = (q - v[k]) * (q - v[k]) + f[v[k]];
  }
}

/** Euclidean distance of each pixel centre to the nearest pixel where `inside(i)` holds. */
function distanceTo(w: number, h: number, inside: (i: number) => boolean): Float64Array {
  const big = (w + h) * (w + h);
  const g = new Float64Array(w * h);
  const n = Math.max(w, h);
  const [f, d, z, v] = [new Float64Array(n), new Float64Array(n), new Float64Array(n + 1), new Int32Array(n)];
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) f[y] = inside(y * w + x) ? 0 : big;
    distance1d(f, h, d, v, z);
    for (let y = 0; y < h; y++) g[y * w + x] = d[y];
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) f[x] = g[y * w + x];
    distance1d(f, w, d, v, z);
    for (let x = 0; x < w; x++) g[y * w + x] = Math.sqrt(d[x]);
  }
  return g;
}

const smoothstep = (a: number, b: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - a) / (b - a)));
  return t * t * (3 - 2 * t);
};

/** The mask's coverage at `w` × `h` (the element's drawn size in canvas pixels), 0–255 per
 * pixel in the alpha channel of a canvas, inverted when asked. */
export function maskCanvas(mask: FrameMask, w: number, h: number): OffscreenCanvas {
  const p = mask.params as P;
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
  const feather = num(p, "feather");
  ctx.fillStyle = "#fff";
  if (mask.type === "split" && feather > 0) {
    // OpenCut's analytical ramp: transparent feather/2 behind the line, opaque feather/2 past it.
    const rad = (num(p, "rotation") * Math.PI) / 180;
    const [nx, ny] = [Math.cos(rad), Math.sin(rad)];
    const [lx, ly] = [w / 2 + num(p, "centerX") * w, h / 2 + num(p, "centerY") * h];
    const ramp = ctx.createLinearGradient(lx - (nx * feather) / 2, ly - (ny * feather) / 2, lx + (nx * feather) / 2, ly + (ny * feather) / 2);
    ramp.addColorStop(0, "rgba(255,255,255,0)");
    ramp.addColorStop(1, "white");
    ctx.fillStyle = ramp;
    ctx.fillRect(0, 0, w, h);
  } else if (mask.type === "text") {
    drawTextMask(ctx, p, w, h, false);
  } else {
    ctx.fill(maskPath(mask, w, h));
  }
  const image = ctx.getImageData(0, 0, w, h);
  const a = image.data;
  if (feather > 0 && mask.type !== "split") {
    // Signed distance: to the nearest outside pixel when inside, minus to the nearest inside one.
    const isIn = (i: number) => a[4 * i + 3] >= 128;
    const toOut = distanceTo(w, h, (i) => !isIn(i));
    const toIn = distanceTo(w, h, isIn);
    for (let i = 0; i < w * h; i++) a[4 * i + 3] = Math.round(255 * smoothstep(-feather / 2, feather / 2, toOut[i] - toIn[i]));
  }
  if (p.inverted === true) for (let i = 3; i < a.length; i += 4) a[i] = 255 - a[i];
  ctx.putImageData(image, 0, 0);
  return canvas;
}

/** A text or freeform mask's outline on its own `w` × `h` canvas, as their renderStroke draws it:
 * centred on the edge with round joins, then cut to the inside or the outside of the shape. */
function outlineCanvas(mask: FrameMask, w: number, h: number): OffscreenCanvas {
  const p = mask.params as P;
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext("2d")!;
  ctx.strokeStyle = str(p, "strokeColor", "#ffffff");
  ctx.lineWidth = num(p, "strokeWidth");
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  const shape = (outline: boolean) => {
    if (mask.type === "text") drawTextMask(ctx, p, w, h, outline);
    else if (outline) ctx.stroke(maskPath(mask, w, h));
    else ctx.fill(maskPath(mask, w, h));
  };
  shape(true);
  if (p.strokeAlign === "inside" || p.strokeAlign === "outside") {
    ctx.globalCompositeOperation = p.strokeAlign === "inside" ? "destination-in" : "destination-out";
    ctx.fillStyle = "#ffffff";
    shape(false);
  }
  return canvas;
}

/** Caches each layer's mask by what it depends on (its parameters and drawn size). */
export function createMasks() {
  const cache = new Map<string, OffscreenCanvas>();
  return {
    /**
     * The picture `source` (`sw` × `sh`) through `mask`, at the source's size, as a bitmap every
     * backend uploads; `drawn` is the element's size on the canvas (canvas pixels), where the
     * mask, its feather and its outline are measured.
     */
    async apply(source: CanvasImageSource, sw: number, sh: number, mask: FrameMask, drawn: { width: number; height: number }): Promise<ImageBitmap> {
      const [w, h] = [Math.max(1, Math.round(drawn.width)), Math.max(1, Math.round(drawn.height))];
      const key = `${w}x${h} ${JSON.stringify(mask)}`;
      const cached = (k: string, make: () => OffscreenCanvas) => {
        let c = cache.get(k);
        if (!c) {
          c = make();
          if (cache.size > 32) cache.clear();
          cache.set(k, c);
        }
        return c;
      };
      const m = cached(key, () => maskCanvas(mask, w, h));
      const out = new OffscreenCanvas(sw, sh);
      const ctx = out.getContext("2d")!;
      ctx.drawImage(source, 0, 0, sw, sh);
      ctx.globalCompositeOperation = "destination-in";
      ctx.drawImage(m, 0, 0, sw, sh);
      ctx.globalCompositeOperation = "source-over";
      const p = mask.params as P;
      const stroke = num(p, "strokeWidth");
      if (stroke > 0 && (mask.type === "text" || mask.type === "freeform")) {
        ctx.drawImage(
          cached(`${key} outline`, () => outlineCanvas(mask, w, h)),
          0,
          0,
          sw,
          sh,
        );
      } else if (stroke > 0) {
        // The outline over the masked picture, in the element's drawn pixels.
        const align = p.strokeAlign === "inside" ? -stroke / 2 : p.strokeAlign === "outside" ? stroke / 2 : 0;
        ctx.save();
        ctx.scale(sw / w, sh / h);
        ctx.strokeStyle = typeof p.strokeColor === "string" ? p.strokeColor : "#ffffff";
        ctx.lineWidth = stroke;
        ctx.stroke(maskPath(mask, w, h, align));
        ctx.restore();
      }
      return out.transferToImageBitmap();
    },
  };
}

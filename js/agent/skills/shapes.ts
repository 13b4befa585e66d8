import type { Skill } from "./index.js";

export const SHAPES: Skill = {
  name: "shapes",
  description: "Bars, boxes, badges and highlight circles: add OpenCut's shapes with a fill and an outline, place, restyle and animate them.",
  body: `# Shapes: bars, boxes, badges and highlights

1. Call \`list_timeline\` to see what plays when and where text sits, so the shape goes behind or around it as meant.
2. Pick the shape: rectangle for bars, boxes and lower-third backings (\`cornerRadius\` 0 to 50 rounds it), ellipse for circles and highlights, polygon (\`sides\` 3 to 12) for triangles, hexagons and badges, star (\`points\` 3 to 12, \`depth\` 1 to 99: the inner radius in percent) for bursts.
3. Call \`add_graphic\` with \`{ "shape": "<shape>", "start": <s>, "end": <s>, "fill": "<colour>", "size": <pixels> or { "width": <px>, "height": <px> }, "position": "center" | "top-left" | "top-right" | "bottom-left" | "bottom-right" }\`. An outline is \`"stroke": { "color": "<colour>", "width": <0-64>, "align": "inside" | "center" | "outside" }\`; a ring is a transparent fill (\`"fill": "rgba(0,0,0,0)"\`) with an outline. Colours are #rrggbb, #rrggbbaa, rgb() or rgba().
4. A shape goes on a graphic track above the video (a new one on top when none is free). Tracks listed higher draw over lower ones: for a title on a backing bar, check in \`list_timeline\` that the text's track is above the bar's, and \`move_track\` it up if not.
5. To place it exactly, call \`update_clip\` with \`"position": { "x": <px>, "y": <px> }\` (from the canvas centre, +y down) or an anchor with a margin; \`scale\` resizes it; \`opacity\` fades it.
6. To restyle it later, \`update_clip\` with \`"graphic": { "fill": …, "stroke": { … }, "cornerRadius": … }\`: only what is given changes. A key the shape does not have (sides on a star) is refused with the keys it takes.
7. To animate it, \`upsert_keyframe\` on \`params.fill\`, \`params.stroke\`, \`params.strokeWidth\`, \`params.cornerRadius\`, \`params.sides\`, \`params.points\` or \`params.depth\` (and the transform or \`opacity\`), one key at each end of the change; \`list_animatable_properties\` names what the shape has.
8. Call \`list_timeline\` at the end and tell the user which shapes you added, where and when.
`,
};

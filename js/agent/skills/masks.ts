import type { Skill } from "./index.js";

export const MASKS: Skill = {
  name: "masks",
  description: "Show only part of a video or image with a mask: a circle picture-in-picture, letterbox bars, a spotlight, a split screen.",
  body: `# Masks: show part of a clip

1. Call \`list_timeline\` and find the video or image element (masks work on video, image and graphic elements, not on text). An element that has a mask names its shape as \`mask\`; \`get_element\` shows the mask's \`params\`.
2. Call \`update_clip\` with \`{ "elementIds": ["<id>"], "mask": { "type": "<shape>" } }\`: rectangle, ellipse, diamond, star, heart, cinematic-bars or split. A new shape starts as OpenCut's default: centred, a square of 0.6 of the element's shorter side (an ellipse is a circle). The same type again changes only the parameters given; \`{ "type": "none" }\` alone takes the mask away.
3. Parameters, all optional: \`centerX\` and \`centerY\` (the shape's centre from the element's centre, fractions of its width and height, -1 to 1, +y down), \`width\` and \`height\` (fractions of the element's width and height; split has neither), \`rotation\` (degrees clockwise), \`feather\` (a soft edge, canvas pixels), \`inverted\` (true shows everything but the shape), \`strokeColor\` (#rrggbb), \`strokeWidth\` (pixels, 0 is none) and \`strokeAlign\` (inside, center, outside).
4. Circle picture-in-picture, the second clip on an overlay track: \`update_clip\` with \`{ "elementIds": ["<id>"], "scale": 0.4, "position": { "anchor": "bottom-right", "margin": 40 }, "mask": { "type": "ellipse", "strokeWidth": 6, "strokeColor": "#ffffff" } }\`. For a circle as tall as the clip, read the default's \`width\` and \`height\` with \`get_element\` and set \`{ "type": "ellipse", "height": 1, "width": <width ÷ height>, "centerX": <0.5 − that width ÷ 2> }\`: the circle then touches the clip's right edge, so it sits in the anchored corner (a negative \`centerX\` for a left corner).
5. Letterbox bars on a clip that fills the frame: \`{ "type": "cinematic-bars", "height": <canvas aspect ÷ the look's aspect> }\`, 0.744 for 2.39:1 on a 16:9 canvas. The band shows; the bars are the canvas background (black unless \`update_project\` set another; a blur background would show through them, so give it a colour).
6. Spotlight: \`{ "type": "ellipse", "centerX": …, "centerY": …, "width": …, "height": …, "feather": 80 }\` over the subject: only a soft circle of the clip shows, the rest is the canvas background or the track below. With \`"inverted": true\` the same circle is hidden instead (a face, a number plate) and the rest of the clip stays.
7. Split screen: split keeps the part of the element on the side its \`rotation\` points to: 0 the right half, 90 the bottom, 180 the left, 270 the top; \`centerX\` or \`centerY\` moves the line. The main clip with \`{ "type": "split", "rotation": 180 }\` and another on an overlay track with \`{ "type": "split", "rotation": 0 }\` show the left half of one and the right half of the other.
8. Masks cannot be keyframed (not in OpenCut either: \`list_animatable_properties\` does not list them, and \`upsert_keyframe\` answers \`PROPERTY_NOT_ANIMATABLE\`). A mask moves and scales with its clip, so keyframes on the clip's position or scale carry it along; for a shape that changes mid-clip, \`split\` the clip at that time and mask each piece.
9. Call \`get_element\` to confirm the mask, and \`render_preview\` when it is offered to see it; tell the user the shape and where it is.
`,
};

import type { Skill } from "./index.js";

export const CANVAS_BACKGROUND: Skill = {
  name: "canvas-background",
  description: "Fill the canvas behind the clips: a blur of the main video (bars of a vertical clip), a colour, or none.",
  body: `# Canvas background

1. Call \`list_timeline\`: it shows the project's \`background\` when it is not black (the default). The background is what the canvas shows where no layer covers it: the bars beside a vertical clip on a landscape canvas (or above and below the reverse), around a clip scaled down with \`update_clip\`, where a mask hides the picture, behind text over nothing.
2. Blur of the video behind: \`update_project\` with \`{ "background": { "type": "blur", "blurIntensity": 200 } }\` (OpenCut's presets: 100 light, 200 medium, 500 heavy). The main track's clip at each moment is drawn under everything, scaled to cover the canvas, and blurred: the usual fix for a vertical clip's bars. It blurs only the main track, so a clip on an overlay track over an empty main track gets no blur behind it.
3. A colour: \`{ "background": "#1e1e1e" }\` (#rrggbb, rgb() or rgba()), a brand colour behind a scaled-down clip or the colour of letterbox bars (the \`masks\` skill). \`{ "background": "transparent" }\` draws nothing; set it only when the user asks for no background.
4. The background is one setting for the whole project, not per clip: \`update_project\` replaces it, as one undo step. Back to the default: \`{ "background": "#000000" }\`.
5. Call \`list_timeline\` to confirm (its \`background\`), and \`render_preview\` when it is offered to see it; tell the user what now fills the bars.
`,
};

import type { Skill } from "./index.js";

export const VERTICAL_SHORT: Skill = {
  name: "vertical-short",
  description: "Turn a longer video into a short vertical clip: pick the best moment, trim, reframe, add a hook.",
  body: `# A vertical short

1. Call \`list_project_assets\` and \`list_timeline\`. The canvas size is the project's setting, which these tools do not change: if the project is not vertical (for example 1080x1920), tell the user to switch it in the editor first, then go on.
2. Call \`load_asset_context\` on the source video (and \`transcribe_video\` when it has speech) to find the strongest 15 to 60 seconds: a complete thought with a clear start.
3. Propose the moment with \`submit_plan\` when you have it ("Keep 01:05.00 to 01:42.00", "Reframe to fill the frame", "Add a hook title", "Add captions") and wait.
4. Trim: call \`split\` with \`{ "times": [<start>, <end>] }\`, then \`list_timeline\` and \`delete_timeline_elements\` on the pieces before and after the moment, and \`move_timeline_elements\` \`{ "elementIds": ["<kept piece>"], "start": 0 }\` (deleting leaves a gap; nothing ripples).
5. Reframe the kept clip to fill the tall canvas: \`update_clip\` with \`{ "elementIds": ["<id>"], "scale": 1.8, "position": "center" }\`; adjust \`scale\` (about the canvas height over the fitted height) or use \`position\` \`{ "x": <pixels>, "y": 0 }\` to keep the speaker's face in frame. Check with \`render_preview\` when it is offered.
6. Add a hook in the first three seconds: \`add_text\` with \`{ "text": "<a short promise>", "start": 0, "end": 3, "position": "top", "style": "hook" }\`.
7. Add captions by following the \`captions\` skill (\`load_skill\` with \`{ "name": "captions" }\`).
8. Tell the user the final length and what you kept.
`,
};

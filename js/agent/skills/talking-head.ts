import type { Skill } from "./index.js";

export const TALKING_HEAD: Skill = {
  name: "talking-head",
  description: "Polish a talking-head recording: tighten it, label the speaker, keep the voice clear.",
  body: `# Talking head

1. Call \`list_timeline\` and \`list_project_assets\`; find the recording (main track) and any music (audio track).
2. Call \`transcribe_video\` on the recording. Find false starts and repeated takes (the same sentence said twice: keep the last, complete one) and long pauses.
3. Show what you will cut with \`submit_plan\` when you have it, and wait for the answer.
4. Cut each range from the last to the first: \`split\` with \`{ "times": [<start>, <end>] }\`, \`list_timeline\`, then \`delete_timeline_elements\` on the piece inside the range and \`move_timeline_elements\` to pull everything after it back to the cut's start (deleting leaves a gap).
5. Label the speaker once, early: \`add_text\` with \`{ "text": "<Name, role>", "start": 1, "end": 5, "position": "bottom", "style": "label" }\`. Ask with \`ask_user\` when you do not know the name.
6. Keep the voice on top: music at \`set_volume\` \`{ "trackId": "<id>", "elementId": "<id>", "volume": 0.15 }\` (0 to 1; or \`update_clip\` with \`volume\` in decibels, about -16), the voice at 1.
7. For a punch-in on a key sentence: \`split\` at its start and end, then \`update_clip\` with \`{ "elementIds": ["<the middle piece>"], "scale": 1.2 }\`.
8. Tell the user what you removed and the new length.
`,
};

import type { Skill } from "./index.js";

export const CUT_TO_SCENES: Skill = {
  name: "cut-to-scenes",
  description: "Split a clip at its scene changes, measured from its frames, so each shot is its own element.",
  body: `# Cut to scenes

1. Call \`list_timeline\` and find the video element the user means (its \`elementId\`, start and end).
2. Call \`detect_scenes\` with its \`elementId\`: the hard cuts measured from the frames, in timeline seconds, each the first frame of a new shot. Fades and camera moves are not cuts. If it finds none and the user expects some, try \`"threshold": 0.05\`.
3. Call \`split\` once with every cut: \`{ "times": [<cut>, ...] }\`. Each shot becomes its own element on the same track, in one undo step.
4. For what the user asked next (drop a shot, reorder, trim), use the new elements' ids from the split's answer: \`delete_timeline_elements\`, \`move_timeline_elements\`, \`update_timeline_element_timing\`.
5. Call \`list_timeline\` at the end and tell the user how many shots the clip now has and where each starts.
`,
};

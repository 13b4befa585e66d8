import type { Skill } from "./index.js";

export const REMOVE_SILENCES: Skill = {
  name: "remove-silences",
  description: "Cut the pauses between phrases out of a talking clip, closing the gaps.",
  body: `# Remove silences

1. Call \`list_timeline\` and find the speech clip (its element id, start and end) on the main track.
2. Call \`detect_silences\` with its \`elementId\` and \`{ "minDuration": 0.6 }\`: the pauses measured from the sound, in timeline seconds (shorter ones are natural and stay). If the room is noisy and it finds none, try \`"thresholdDb": -35\`.
3. Keep 0.15 s of air on both sides of each pause: the cut runs from \`start + 0.15\` to \`end - 0.15\`. When a transcript is at hand (\`transcribe_video\`), never cut into a segment.
4. Before cutting more than five ranges, call \`submit_plan\` with one step per range (for example "Cut 00:12.40 to 00:15.10 (2.7 s pause)") when you have it, and wait for the answer.
5. Call \`cut_ranges\` once with every range: \`{ "ranges": [{ "start": <cut start>, "end": <cut end>}, ...] }\`. It removes them from every track in one undo step and closes the gaps (ripple), so captions, overlays, music and effects move with the footage and stay in sync.
6. Call \`list_timeline\` at the end and tell the user how many pauses you removed and how much shorter the clip is (cut_ranges reports the seconds it removed).
`,
};

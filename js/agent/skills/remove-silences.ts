import type { Skill } from "./index.js";

export const REMOVE_SILENCES: Skill = {
  name: "remove-silences",
  description: "Cut the pauses between phrases out of a talking clip, closing the gaps.",
  body: `# Remove silences

1. Call \`list_timeline\` and find the speech clip (its element id, start and end) on the main track.
2. Call \`transcribe_video\` with its \`assetId\`. The segments give where speech is, in timeline seconds; a silence is a gap between one segment's \`end\` and the next one's \`start\`.
3. Keep gaps shorter than 0.6 s (natural pauses). For each longer gap, keep 0.15 s of air on both sides: the cut runs from \`end + 0.15\` to \`nextStart - 0.15\`.
4. Before cutting more than five ranges, call \`submit_plan\` with one step per range (for example "Cut 00:12.40 to 00:15.10 (2.7 s pause)") when you have it, and wait for the answer.
5. Call \`cut_ranges\` once with every range: \`{ "ranges": [{ "start": <cut start>, "end": <cut end>}, ...] }\`. It removes them from every track in one undo step and closes the gaps (ripple), so captions, overlays, music and effects move with the footage and stay in sync.
6. Never cut inside a segment: speech would be clipped.
7. Call \`list_timeline\` at the end and tell the user how many pauses you removed and how much shorter the clip is (cut_ranges reports the seconds it removed).
`,
};

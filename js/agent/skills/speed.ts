import type { Skill } from "./index.js";

export const SPEED: Skill = {
  name: "speed",
  description: "Slow motion, fast forward, or fit a clip to a length: set its speed, keep the voice's pitch, keep the track in order.",
  body: `# Speed: slow motion, fast forward, fit to a length

1. Call \`list_timeline\` and find the video or audio element the user means: its \`elementId\`, start, end, \`rate\` (absent is 1) and what follows it on its track.
2. Work out the speed: twice as fast is 2, half speed 0.5 (0.01 to 5). To make it last N seconds, the new speed is its rate now × its duration now ÷ N.
3. Slower makes it longer. If it would run into the next element on its track, \`update_clip\` fails with \`OVERLAP\` and names that element: first move the later elements right with \`move_timeline_elements\` (by how much longer it gets), then set the speed.
4. Call \`update_clip\` with \`{ "elementIds": ["<id>"], "speed": <speed>, "maintainPitch": true }\` for speech and music, so voices stay natural; with \`"maintainPitch": false\` for a sound effect, or when the user wants the sped-up or slowed-down sound. The answer gives the clip's new \`start\`, \`end\` and \`duration\`.
5. Faster makes it shorter and leaves a gap after it. Unless the user wants the gap, move the later elements of that track left so the next one starts at the clip's new \`end\` (\`move_timeline_elements\` with their new \`start\`).
6. Keyframes past the clip's new end are cut off there: put a fade-out back at the new end with \`upsert_keyframe\` if it had one.
7. Call \`list_timeline\` at the end and tell the user the clip's new speed and length.
`,
};

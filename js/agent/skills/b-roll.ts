import type { Skill } from "./index.js";

export const BROLL: Skill = {
  name: "b-roll",
  description: "Lay cutaway footage (b-roll) over the main story where it illustrates what is said.",
  body: `# B-roll

1. Call \`list_project_assets\` with \`{ "filter": "unused" }\` to see the footage not yet used, and \`list_timeline\` for the main story.
2. Call \`load_asset_context\` on each candidate clip (its summary says what it shows) and \`transcribe_video\` on the main recording, to match moments: a clip fits where the speech names what it shows.
3. Propose the placements with \`submit_plan\` when you have it ("Cover 00:08.00 to 00:12.00 with beach.mp4") and wait.
4. Place each on the overlay track over the main story: \`add_media_to_timeline\` with \`{ "assetId": "<id>", "startTime": <seconds>, "trackType": "overlay", "duration": <seconds> }\`. Keep cutaways 2 to 6 seconds; never cover the first sentence or a face saying something important.
5. B-roll usually should not be heard over the voice: \`update_clip\` with \`{ "elementIds": ["<id>"], "muted": true }\`.
6. To ease it in, \`apply_effect\` with a fade or blur when \`list_effects\` offers one, or keep plain cuts.
7. Tell the user which clips went where.
`,
};

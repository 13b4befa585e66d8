import type { Skill } from "./index.js";

export const CAPTIONS: Skill = {
  name: "captions",
  description: "Burn in captions from a transcript of the speech, one text element per phrase.",
  body: `# Captions from a transcript

1. Call \`list_timeline\` to find the video or audio elements with speech; note each element's id and its start and end.
2. Call \`transcribe_video\` with \`{ "elementId": "<the element id>" }\` for each element the user means (or \`{ "assetId": ... }\` for every placement of an asset). The segments come back in timeline seconds, through the element's trim and speed, with their \`words\` when the transcriber gives word times.
3. Merge segments shorter than 0.8 s with their neighbour and split any longer than 6 s or 42 characters at a word boundary, so each caption reads comfortably. With \`words\`, split at a word: the caption runs from its first word's \`start\` to its last word's \`end\`.
4. Add one caption per segment with \`add_text\`: \`{ "text": "<segment text>", "start": <segment start>, "end": <segment end>, "position": "bottom", "style": "subtitle" }\`. Several captions can go in one \`batch\` (\`{ "steps": [{ "tool": "add_text", "args": { ... } }, ...] }\`), which is one undo step; keep a batch to about 40 steps.
5. Do not change the wording except for obvious filler the user asked to drop; keep the user's language.
6. Finish by calling \`list_timeline\` once and tell the user how many captions you added and the time range they cover. To correct one later, use \`update_text\` with its \`trackId\` and \`elementId\`.
`,
};

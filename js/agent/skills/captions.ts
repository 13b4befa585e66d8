import type { Skill } from "./index.js";

export const CAPTIONS: Skill = {
  name: "captions",
  description: "Caption the speech with add_captions, or bring subtitles in and out (SRT, VTT, ASS).",
  body: `# Captions from the speech

1. Call \`list_timeline\` to find the video or audio elements with speech; note each element's id.
2. Call \`add_captions\` with \`{ "elementId": "<the element id>" }\` for each element the user means (or \`{ "assetId": ... }\` for every placement of an asset). Leave \`words\` out: the speech is transcribed for you (\`transcribe_video\`, its words in timeline seconds through the element's trim and speed) and made into captions in one undo step, on a captions track above everything, each at its words' times and never overlapping the next.
3. Shape them only when the user asks: \`maxCharsPerLine\` (default 42; about 20 for a vertical video), \`maxLines\` (default 2; 1 for short punchy captions), \`minDuration\` (default 0.8 s), \`style\` (default subtitle; hook for large bold words) and \`position\` (default bottom).
4. Do not change the wording except for obvious filler the user asked to drop; keep the user's language. To fix one caption, use \`update_text\` with its \`trackId\` and \`elementId\` (from \`list_timeline\`): it stays a caption.
5. A subtitle file the user gives: \`import_subtitles\` with its \`text\` and \`format\` (srt, vtt or ass). To hand the captions over as a file: \`export_subtitles\` with the format, which writes the captions as the timeline holds them now.
6. Finish by calling \`list_timeline\` once and tell the user how many captions you added and the time range they cover (\`add_captions\` returns both).
`,
};

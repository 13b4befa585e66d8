// check_timeline's `silence`, judged where the media are (the engine reports only what the
// timeline alone shows): spans of at least a second where the mix the export would make is
// silent. The mix is read from the engine's audio plan (which clips sound, at what gain) and
// each heard clip's own pauses, measured by detect_silences from its decoded audio. A clip whose
// audio cannot be decoded here counts as sounding, so an unknown never reads as silence.
import { detectSilencesTool } from "../detect-silences.js";
import type { HostEditor } from "./index.js";
import type { Finding } from "./index.js";

/** The shortest silence reported, in seconds. */
export const MIN_SILENCE = 1;
/** Below this a clip is not heard: -50 dBFS, quieter than room tone in most recordings. */
export const QUIET_DB = -50;
/** Gains at or below this are silent (-60 dB, the engine's floor). */
const SILENT_GAIN = 0.001;
/** The grid the spans are judged on, in seconds (detect_silences' window). */
const CELL = 0.01;

const round = (s: number) => Math.round(s * 1000) / 1000;

/** Seconds of clips whose sound is decoded per check at most; past it a clip counts as
 * sounding wherever it plays at a gain (the plan alone), so a check stays seconds long. */
export const MEASURE_BUDGET = 600;

/** The silences of the timeline's mix, as check_timeline findings: between the first and the
 * last moment a video or audio element is placed (silence before the first sound, under a title,
 * or after the last, under an end card, is how timelines are made); none for a timeline with
 * nothing that could sound. */
export async function mixSilences(editor: HostEditor): Promise<Finding[]> {
  // One copy of the project for every clip's measurement (each would serialize it again).
  const project = editor.project();
  const elements = ((project.timeline as { tracks?: { elements?: { type: string; start: number; duration: number }[] }[] } | null)?.tracks ?? []).flatMap(
    (t) => t.elements ?? [],
  );
  const audible = elements.filter((e) => e.type === "video" || e.type === "audio");
  if (audible.length === 0) return [];
  const begin = Math.min(...audible.map((e) => e.start / 120_000));
  const end = Math.max(...audible.map((e) => (e.start + e.duration) / 120_000));
  const plan = editor.audioPlan(0, end, 0.1);
  if (!plan) return [];
  const cells = Math.ceil(end / CELL);
  const loud = new Uint8Array(cells);
  const measure = detectSilencesTool({ project: () => project, assetSource: (id) => editor.assetSource(id) });
  let budget = MEASURE_BUDGET;
  for (const clip of plan.clips) {
    // The clip's own pauses (timeline seconds); none known when its audio cannot be read here.
    const span = clip.end - clip.start;
    const out = span <= budget ? await measure.call({ elementId: clip.elementId, minDuration: CELL, thresholdDb: QUIET_DB }) : {};
    budget -= Math.min(span, budget);
    const quiet = Array.isArray(out.silences) ? (out.silences as { start: number; end: number }[]) : [];
    const from = Math.max(0, Math.floor(clip.start / CELL));
    const to = Math.min(cells, Math.ceil(clip.end / CELL));
    for (let c = from; c < to; c++) {
      const t = (c + 0.5) * CELL;
      const g = clip.gains[Math.min(clip.gains.length - 1, Math.max(0, Math.floor((t - clip.gainsFrom) / plan.step)))];
      if (g <= SILENT_GAIN || quiet.some((q) => t >= q.start && t < q.end)) continue;
      loud[c] = 1;
    }
  }
  const findings: Finding[] = [];
  for (let c = Math.floor(begin / CELL + 1e-9); c < cells; ) {
    if (loud[c]) {
      c++;
      continue;
    }
    const first = c;
    while (c < cells && !loud[c]) c++;
    const [start, stop] = [round(first * CELL), round(Math.min(end, c * CELL))];
    if (stop - start >= MIN_SILENCE - 1e-9) {
      findings.push({
        kind: "silence",
        start,
        end: stop,
        message: `Nothing is heard from ${start} s to ${stop} s: no clip sounds there (none placed, muted, at silent volume, or a pause in its sound). Fill or close it if it is not meant.`,
      });
    }
  }
  return findings;
}

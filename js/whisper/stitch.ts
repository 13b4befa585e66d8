// Long media is heard in overlapping windows (Whisper hears 30 s at a time); here the windows'
// words become one transcript. Each overlap is cut at a gap between words, the one nearest the
// overlap's middle where neither window has a word running across it (words near a window's
// edge are the least reliable), so a word is kept once, from one window, and none is lost.

export interface TimedWord {
  start: number;
  end: number;
  text: string;
}

/** One window's words, in seconds of the whole media. */
export interface WindowWords {
  start: number;
  end: number;
  words: TimedWord[];
}

/** Seconds a word may run across a cut and still count as not crossing it (DTW's jitter:
 * transformers.js merges its own chunks with the same 0.1 s). */
const TOLERANCE = 0.1;

/** The windows [start, end) of `duration` seconds: `window` long, each `overlap` into the last. */
export function windowsOf(duration: number, window: number, overlap: number): Array<{ start: number; end: number }> {
  const hop = window - overlap;
  const out: Array<{ start: number; end: number }> = [];
  for (let start = 0; ; start += hop) {
    const end = Math.min(duration, start + window);
    out.push({ start, end });
    if (end >= duration) break;
  }
  return out;
}

const crosses = (words: TimedWord[], at: number) => words.some((w) => w.start < at - TOLERANCE && w.end > at + TOLERANCE);
const mid = (w: TimedWord) => (w.start + w.end) / 2;

/** Where the overlap of `a` and `b` (b starting inside a) is cut. */
export function cutPoint(a: WindowWords, b: WindowWords): number {
  const from = b.start;
  const to = a.end;
  const middle = (from + to) / 2;
  const gaps: number[] = [];
  for (const words of [a.words, b.words]) {
    for (let i = 0; i + 1 < words.length; i++) {
      const at = (words[i].end + words[i + 1].start) / 2;
      if (at > from && at < to) gaps.push(at);
    }
    // Before the first word and after the last also count: silence there.
    if (words.length && words[0].start > from) gaps.push((from + words[0].start) / 2);
    if (words.length && words.at(-1)!.end < to) gaps.push((words.at(-1)!.end + to) / 2);
  }
  if (!a.words.length && !b.words.length) gaps.push(middle);
  let best: number | undefined;
  for (const at of gaps) {
    if (crosses(a.words, at) || crosses(b.words, at)) continue;
    if (best === undefined || Math.abs(at - middle) < Math.abs(best - middle)) best = at;
  }
  return best ?? middle;
}

/** The windows' words as one list: each overlap cut (cutPoint), a word kept from the window its
 * middle falls in, times made to follow one another. `cuts` are the cut points, one per overlap. */
export function stitch(windows: WindowWords[]): { words: TimedWord[]; cuts: number[] } {
  const cuts: number[] = [];
  for (let i = 0; i + 1 < windows.length; i++) cuts.push(cutPoint(windows[i], windows[i + 1]));
  const words: TimedWord[] = [];
  windows.forEach((win, i) => {
    const from = i > 0 ? cuts[i - 1] : Number.NEGATIVE_INFINITY;
    const to = i < cuts.length ? cuts[i] : Number.POSITIVE_INFINITY;
    for (const w of win.words) {
      const m = mid(w);
      if (m < from || m >= to) continue;
      const last = words.at(-1);
      const start = Math.max(w.start, last ? last.end : 0);
      words.push({ start, end: Math.max(start, w.end), text: w.text });
    }
  });
  return { words, cuts };
}

/** Words grouped into segments: a new one after a pause of `pause` s, after a sentence's end, or
 * when one would pass `longest` s. */
export function segmentsOf(words: TimedWord[], pause = 0.6, longest = 10): Array<{ start: number; end: number; text: string; words: TimedWord[] }> {
  const out: Array<{ start: number; end: number; text: string; words: TimedWord[] }> = [];
  let current: TimedWord[] = [];
  const close = () => {
    if (!current.length) return;
    out.push({ start: current[0].start, end: current.at(-1)!.end, text: current.map((w) => w.text).join(" "), words: current });
    current = [];
  };
  for (const w of words) {
    const last = current.at(-1);
    if (last && (w.start - last.end >= pause || /[.?!。？！]$/.test(last.text) || w.end - current[0].start > longest)) close();
    current.push(w);
  }
  close();
  return out;
}

// Which picture of a video stands for a timeline frame, shared by the renderer's seeks and the
// export's in-order decoding, so both draw the same picture for the same time.

/** The source time whose picture stands for the frame at `time`: the middle of a source frame of `fps`, inside the file. */
export function videoTargetTime(time: number, fps: number, duration?: number): number {
  return Math.max(0, Math.min(time + 0.5 / fps, (duration || time + 1) - 0.001));
}

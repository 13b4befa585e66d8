// A picture's size, the one rule for every kind of source the renderers take.

/** Width and height in pixels: a video's decoded size, an image's natural size, else `width` and `height`. */
export function pictureSize(s: object): [number, number] {
  if (typeof HTMLVideoElement !== "undefined" && s instanceof HTMLVideoElement) return [s.videoWidth, s.videoHeight];
  if (typeof VideoFrame !== "undefined" && s instanceof VideoFrame) return [s.displayWidth, s.displayHeight];
  if (typeof HTMLImageElement !== "undefined" && s instanceof HTMLImageElement) return [s.naturalWidth, s.naturalHeight];
  return [(s as { width: number }).width, (s as { height: number }).height];
}

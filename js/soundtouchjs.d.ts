// The part of soundtouchjs (no typings of its own) that js/media/stretch.ts uses.
declare module "soundtouchjs" {
  export class SoundTouch {
    tempo: number;
    pitch: number;
  }
  export class SimpleFilter {
    constructor(source: { extract(target: Float32Array, frames: number, position: number): number }, pipe: SoundTouch, onEnd?: () => void);
    extract(target: Float32Array, frames: number): number;
  }
}

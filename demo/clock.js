// The playhead: the current time, playing or paused. Playback advances it on animation frames.
import { store } from "./util.js";

export function createClock({ duration }) {
  const state = store({ time: 0, playing: false });
  let startedAt = 0;
  let startedFrom = 0;
  let frame = 0;

  function end() {
    return Math.max(0, duration());
  }

  function tick(now) {
    if (!state.get().playing) return;
    const t = startedFrom + (now - startedAt) / 1000;
    if (t >= end()) {
      state.set({ time: end(), playing: false });
      return;
    }
    state.set({ time: t });
    frame = requestAnimationFrame(tick);
  }

  const clock = {
    get: state.get,
    subscribe: state.subscribe,
    play() {
      if (state.get().playing) return;
      const from = state.get().time >= end() - 1e-3 ? 0 : state.get().time;
      startedAt = performance.now();
      startedFrom = from;
      state.set({ time: from, playing: true });
      frame = requestAnimationFrame(tick);
    },
    pause() {
      if (!state.get().playing) return;
      cancelAnimationFrame(frame);
      state.set({ playing: false });
    },
    toggle() {
      if (state.get().playing) clock.pause();
      else clock.play();
    },
    seek(seconds) {
      const t = Math.min(Math.max(0, Number(seconds) || 0), end());
      startedAt = performance.now();
      startedFrom = t;
      state.set({ time: t });
    },
  };
  return clock;
}

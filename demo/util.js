// Small helpers shared by the demo's modules.

import { TICKS_PER_SECOND } from "neuralcut";

export { TICKS_PER_SECOND };

/** Creates an element: h("div", { class: "x", onclick }, child, "text", ...). */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(node.style, v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** 75.5 -> "1:15.50". */
export function formatTime(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest.toFixed(2).padStart(5, "0")}`;
}

/** Ticks to seconds. */
export const sec = (ticks) => (ticks ?? 0) / TICKS_PER_SECOND;

/** JSON for display, with long arrays kept readable. */
export function pretty(value) {
  return JSON.stringify(value, null, 2);
}

/** A tiny observable value holder. */
export function store(initial) {
  let value = initial;
  const listeners = new Set();
  return {
    get: () => value,
    set(next) {
      value = typeof next === "function" ? next(value) : next && value && typeof next === "object" ? { ...value, ...next } : next;
      for (const l of [...listeners]) l(value);
    },
    subscribe(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

/** End of the timeline in seconds (the latest element end). */
export function timelineEnd(project) {
  let end = 0;
  for (const track of project?.timeline?.tracks ?? []) {
    for (const e of track.elements ?? []) end = Math.max(end, (e.start ?? 0) + (e.duration ?? 0));
  }
  return sec(end);
}

/** Resolves when `target` fires `event`, or after `ms` (never rejects). */
export function once(target, event, ms = 3000) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      target.removeEventListener(event, done);
      target.removeEventListener("error", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    target.addEventListener(event, done);
    target.addEventListener("error", done);
  });
}

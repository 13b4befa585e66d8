// The timeline view: a ruler, one row per track (type and id), each element as a block with its
// name and id, and a playhead. Redrawn from editor.project() on every change.
//
// Editing as in a desktop editor: click selects (Shift/Ctrl/Cmd-click adds or removes), dragging a
// block moves it (onto another track too), dragging its edges trims it, dragging the ruler or the
// playhead seeks. Each gesture is one engine tool call (one undo step) when the pointer is
// released; a refused edit (an overlap, ...) changes nothing and says why. Every interactive part
// has a data-automation-id (docs/bridge.md lists them).
import { formatTime, h, sec, timelineEnd } from "./util.js";

const LABEL_WIDTH = 128;
/** Pixels a press must travel before it becomes a drag (a click below that). */
const DRAG_THRESHOLD = 3;
/** Width of the trim handles at each end of a block. */

export function createTimelineView({ container, info, editor, clock, selection, zoomButtons, onError = () => {} }) {
  let zoom = 1;
  let pxPerSecond = 60;
  let playhead = null;
  let project = editor.project();
  /** The gesture in progress: { kind, ... }, or null. */
  let gesture = null;

  function span() {
    return Math.max(10, Math.ceil(timelineEnd(project) + 1));
  }

  function layout() {
    const available = Math.max(200, container.clientWidth - LABEL_WIDTH - 12);
    pxPerSecond = (available / span()) * zoom;
  }

  function timeAt(clientX) {
    const lane = container.querySelector(".tl-ruler");
    const rect = lane.getBoundingClientRect();
    return Math.max(0, (clientX - rect.left) / pxPerSecond);
  }

  const selectedIds = () => selection.get()?.elementIds ?? [];

  /** Follows a press on `target` until release; window listeners, so synthetic events work too. */
  function follow(event, onMove, onUp) {
    event.preventDefault();
    try {
      event.currentTarget.setPointerCapture?.(event.pointerId);
    } catch {
      // A synthetic press (the control channel's ui.drag) has no pointer to capture.
    }
    const move = (e) => onMove(e);
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      onUp(e, e.type === "pointercancel");
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }

  function startSeek(event) {
    clock.pause();
    clock.seek(timeAt(event.clientX));
    follow(
      event,
      (e) => clock.seek(timeAt(e.clientX)),
      () => {},
    );
  }

  /** Runs one tool for a gesture; an error is shown and the view redrawn as it was. */
  async function commit(tool, args) {
    const out = await editor.callTool(tool, args);
    if (out?.error) {
      onError(tool, out);
      render();
    }
    return out;
  }

  function select(id, track, e, additive) {
    const ids = selectedIds();
    if (additive) {
      const next = ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];
      selection.set(next.length ? { elementIds: next, elementId: next.at(-1), trackId: track.id, type: e.type } : null);
    } else if (!ids.includes(id)) {
      selection.set({ elementIds: [id], elementId: id, trackId: track.id, type: e.type });
    }
  }

  /** Press on a block: select; a drag then moves the selection (or trims, on a handle). */
  function pressElement(event, track, e, edge) {
    if (event.button !== 0) return;
    event.stopPropagation();
    const additive = event.shiftKey || event.ctrlKey || event.metaKey;
    const wasSelected = selectedIds().includes(e.id);
    if (!edge) select(e.id, track, e, additive && wasSelected ? false : additive);
    else if (!wasSelected) select(e.id, track, e, false);
    const x0 = event.clientX;
    const start = sec(e.start);
    const end = start + sec(e.duration);
    gesture = { kind: edge ?? "move", id: e.id, dx: 0, moved: false };
    follow(
      event,
      (m) => {
        const dx = m.clientX - x0;
        if (!gesture.moved && Math.abs(dx) < DRAG_THRESHOLD && !edge) return;
        gesture.moved = true;
        gesture.dx = dx;
        gesture.y = m.clientY;
        preview();
      },
      async (_up, cancelled) => {
        const g = gesture;
        gesture = null;
        if (cancelled || !g.moved || g.dx === 0) {
          // A plain click on a selected block with a modifier removes it from the selection.
          if (!g.moved && additive && wasSelected && !edge) select(e.id, track, e, true);
          return render();
        }
        const dt = g.dx / pxPerSecond;
        const round = (t) => Math.max(0, Math.round(t * 1000) / 1000);
        if (g.kind === "move") {
          const ids = selectedIds().includes(e.id) ? selectedIds() : [e.id];
          const earliest = Math.min(...ids.map((id) => sec(findElement(id)?.start ?? 0)));
          const row = rowAt(g.y);
          const args = { elementIds: ids, start: round(earliest + dt) };
          if (row && row !== track.id && ids.length === 1) args.targetTrackId = row;
          await commit("move_timeline_elements", args);
        } else if (g.kind === "trim-end") {
          await commit("update_timeline_element_timing", { elementId: e.id, end: round(Math.max(start + 0.01, end + dt)) });
        } else {
          await commit("update_timeline_element_timing", { elementId: e.id, start: round(Math.min(end - 0.01, start + dt)), end: round(end) });
        }
        render();
      },
    );
  }

  function findElement(id) {
    for (const t of project.timeline?.tracks ?? []) for (const e of t.elements ?? []) if (e.id === id) return e;
    return null;
  }

  /** The track row under a page y, if any. */
  function rowAt(y) {
    if (y === undefined) return null;
    for (const row of container.querySelectorAll(".tl-row[data-track-id]")) {
      const r = row.getBoundingClientRect();
      if (y >= r.top && y < r.bottom) return row.dataset.trackId;
    }
    return null;
  }

  /** Shows the gesture in progress without touching the project. */
  function preview() {
    const g = gesture;
    if (!g) return;
    const ids = g.kind === "move" ? (selectedIds().includes(g.id) ? selectedIds() : [g.id]) : [g.id];
    for (const id of ids) {
      const block = container.querySelector(`.tl-el[data-element-id="${CSS.escape(id)}"]`);
      const e = findElement(id);
      if (!block || !e) continue;
      const left = sec(e.start) * pxPerSecond;
      const width = Math.max(3, sec(e.duration) * pxPerSecond - 1);
      block.classList.add("dragging");
      if (g.kind === "move") block.style.transform = `translateX(${g.dx}px)`;
      else if (g.kind === "trim-end") block.style.width = `${Math.max(3, width + g.dx)}px`;
      else {
        const dx = Math.min(g.dx, width - 3);
        block.style.left = `${left + dx}px`;
        block.style.width = `${width - dx}px`;
      }
    }
  }

  function ruler(width) {
    const lane = h("div", {
      class: "tl-lane tl-ruler",
      title: "Click or drag to move the playhead",
      dataset: { automationId: "timeline.ruler" },
      "aria-label": "Ruler: click or drag to move the playhead",
      onpointerdown: startSeek,
    });
    const total = width / pxPerSecond;
    const step = [0.5, 1, 2, 5, 10, 30, 60].find((s) => s * pxPerSecond >= 56) ?? 60;
    for (let t = 0; t <= total + 1e-9; t += step) {
      lane.append(h("div", { class: "tick", style: { left: `${t * pxPerSecond}px` } }, formatTime(t).replace(/\.00$/, "")));
      const half = t + step / 2;
      if (half <= total) lane.append(h("div", { class: "tick minor", style: { left: `${half * pxPerSecond}px` } }));
    }
    return h("div", { class: "tl-row ruler-row" }, h("div", { class: "tl-label" }, "tracks"), lane);
  }

  function elementBlock(track, e) {
    const start = sec(e.start);
    const dur = sec(e.duration);
    const name = e.name ?? e.content ?? e.effectType ?? e.stickerId ?? e.type;
    const selected = selectedIds().includes(e.id);
    const id = `timeline.el.${e.id}`;
    const handle = (edge) =>
      h("div", {
        class: `trim ${edge}`,
        title: `Drag to trim the ${edge === "trim-start" ? "start" : "end"} of ${name}`,
        dataset: { automationId: `${id}.${edge}` },
        onpointerdown: (ev) => pressElement(ev, track, e, edge),
      });
    return h(
      "div",
      {
        class: `tl-el ${e.type}${selected ? " selected" : ""}`,
        role: "button",
        tabindex: "0",
        "aria-pressed": String(selected),
        dataset: { elementId: e.id, trackId: track.id, automationId: id },
        title: `${name} (${e.id}, ${e.type}) ${formatTime(start)} to ${formatTime(start + dur)}`,
        style: { left: `${start * pxPerSecond}px`, width: `${Math.max(3, dur * pxPerSecond - 1)}px` },
        onpointerdown: (ev) => pressElement(ev, track, e, null),
        onclick: (ev) => ev.stopPropagation(),
        onkeydown: (ev) => {
          // Enter selects from the keyboard (Space stays play/pause, as everywhere on the page).
          if (ev.key === "Enter") select(e.id, track, e, ev.shiftKey || ev.ctrlKey || ev.metaKey);
        },
      },
      handle("trim-start"),
      h("span", { class: "n" }, name),
      h("span", { class: "i" }, e.id),
      handle("trim-end"),
    );
  }

  function render() {
    if (gesture) return;
    project = editor.project();
    // The selection keeps only what still exists (after a delete, an undo, ...).
    const ids = selectedIds();
    const alive = ids.filter((id) => findElement(id));
    if (alive.length !== ids.length) return selection.set(alive.length ? { ...selection.get(), elementIds: alive, elementId: alive.at(-1) } : null);
    layout();
    const tracks = project.timeline?.tracks ?? [];
    const width = span() * pxPerSecond + 40;
    const inner = h("div", { class: "tl-inner", style: { width: `${LABEL_WIDTH + width}px` } });
    inner.append(ruler(width));
    if (tracks.length === 0) inner.append(h("div", { class: "tl-empty" }, "No tracks yet: add media, text or an effect."));
    for (const track of tracks) {
      const lane = h("div", { class: "tl-lane" });
      for (const e of track.elements ?? []) lane.append(elementBlock(track, e));
      const flags = [track.muted ? "muted" : "", track.hidden ? "hidden" : ""].filter(Boolean).join(", ");
      inner.append(
        h(
          "div",
          { class: "tl-row", dataset: { trackId: track.id, trackType: track.type } },
          h(
            "div",
            { class: "tl-label" },
            h("span", { class: "type" }, track.name && track.name.toLowerCase() !== track.type ? `${track.type}: ${track.name}` : track.type),
            h("span", { class: "id" }, track.id + (flags ? ` · ${flags}` : "")),
          ),
          lane,
        ),
      );
    }
    playhead = h(
      "div",
      { class: "tl-playhead" },
      h("div", { class: "grip", title: "Playhead: drag to seek", dataset: { automationId: "timeline.playhead" }, onpointerdown: startSeek }),
    );
    inner.append(playhead);
    const scroll = [container.scrollLeft, container.scrollTop];
    // Keyboard focus stays on the same block across a redraw.
    const focused = container.contains(document.activeElement) ? document.activeElement.dataset.automationId : undefined;
    container.replaceChildren(inner);
    [container.scrollLeft, container.scrollTop] = scroll;
    if (focused) container.querySelector(`[data-automation-id="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
    const count = tracks.reduce((n, t) => n + (t.elements?.length ?? 0), 0);
    info.textContent = `${tracks.length} tracks · ${count} elements · ${formatTime(timelineEnd(project))}`;
    container.dataset.revision = String(editor.revision());
    container.dataset.pxPerSecond = String(pxPerSecond);
    movePlayhead(clock.get().time);
  }

  function movePlayhead(t) {
    if (playhead) playhead.style.left = `${LABEL_WIDTH + t * pxPerSecond}px`;
  }

  function setZoom(z) {
    zoom = Math.min(Math.max(z, 0.5), 12);
    render();
  }

  editor.onChange(render);
  selection.subscribe(render);
  clock.subscribe((s) => movePlayhead(s.time));
  new ResizeObserver(() => render()).observe(container);
  zoomButtons.in.addEventListener("click", () => setZoom(zoom * 1.5));
  zoomButtons.out.addEventListener("click", () => setZoom(zoom / 1.5));
  zoomButtons.fit.addEventListener("click", () => setZoom(1));
  container.addEventListener("pointerdown", (e) => {
    const lane = e.target.classList?.contains("tl-lane") && !e.target.classList.contains("tl-ruler");
    if (e.target === container || lane) selection.set(null);
  });
  render();
  return {
    render,
    /** Pixels per second now (zoom 1 fits the timeline to the width). */
    pxPerSecond: () => pxPerSecond,
    zoom: () => zoom,
    setZoom,
  };
}

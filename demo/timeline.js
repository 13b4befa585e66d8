// The timeline view: a ruler, one row per track (type and id), each element as a block with its
// name and id, and a playhead to drag. Redrawn from editor.project() on every change.
import { formatTime, h, sec, timelineEnd } from "./util.js";

const LABEL_WIDTH = 128;

export function createTimelineView({ container, info, editor, clock, selection, zoomButtons }) {
  let zoom = 1;
  let pxPerSecond = 60;
  let playhead = null;
  let project = editor.project();

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

  function startDrag(event) {
    event.preventDefault();
    const target = event.currentTarget;
    target.setPointerCapture?.(event.pointerId);
    clock.pause();
    clock.seek(timeAt(event.clientX));
    const move = (e) => clock.seek(timeAt(e.clientX));
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
      target.removeEventListener("pointercancel", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
    target.addEventListener("pointercancel", up);
  }

  function ruler(width) {
    const lane = h("div", { class: "tl-lane tl-ruler", title: "Click or drag to move the playhead", onpointerdown: startDrag });
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
    const selected = selection.get()?.elementId === e.id;
    const block = h(
      "div",
      {
        class: `tl-el ${e.type}${selected ? " selected" : ""}`,
        dataset: { elementId: e.id, trackId: track.id },
        title: `${name} (${e.id}, ${e.type}) ${formatTime(start)} to ${formatTime(start + dur)}`,
        style: { left: `${start * pxPerSecond}px`, width: `${Math.max(3, dur * pxPerSecond - 1)}px` },
        onclick: (ev) => {
          ev.stopPropagation();
          selection.set(selected ? null : { elementId: e.id, trackId: track.id, type: e.type });
        },
      },
      h("span", { class: "n" }, name),
      h("span", { class: "i" }, e.id),
    );
    return block;
  }

  function render() {
    project = editor.project();
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
          h("div", { class: "tl-label" }, h("span", { class: "type" }, track.name && track.name.toLowerCase() !== track.type ? `${track.type}: ${track.name}` : track.type), h("span", { class: "id" }, track.id + (flags ? ` · ${flags}` : ""))),
          lane,
        ),
      );
    }
    playhead = h("div", { class: "tl-playhead" }, h("div", { class: "grip", title: "Drag to seek", onpointerdown: startDrag }));
    inner.append(playhead);
    const scroll = [container.scrollLeft, container.scrollTop];
    container.replaceChildren(inner);
    [container.scrollLeft, container.scrollTop] = scroll;
    const count = tracks.reduce((n, t) => n + (t.elements?.length ?? 0), 0);
    info.textContent = `${tracks.length} tracks · ${count} elements · ${formatTime(timelineEnd(project))}`;
    container.dataset.revision = String(editor.revision());
    container.dataset.pxPerSecond = String(pxPerSecond);
    movePlayhead(clock.get().time);
  }

  function movePlayhead(t) {
    if (playhead) playhead.style.left = `${LABEL_WIDTH + t * pxPerSecond}px`;
  }

  editor.onChange(render);
  selection.subscribe(render);
  clock.subscribe((s) => movePlayhead(s.time));
  new ResizeObserver(() => render()).observe(container);
  zoomButtons.in.addEventListener("click", () => ((zoom = Math.min(zoom * 1.5, 12)), render()));
  zoomButtons.out.addEventListener("click", () => ((zoom = Math.max(zoom / 1.5, 0.5)), render()));
  zoomButtons.fit.addEventListener("click", () => ((zoom = 1), render()));
  container.addEventListener("click", (e) => {
    if (e.target === container || e.target.classList?.contains("tl-lane")) selection.set(null);
  });
  render();
  return { render };
}

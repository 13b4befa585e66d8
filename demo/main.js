// The NeuralCut demo page: wires the package (neuralcut and, when built, neuralcut/effects,
// neuralcut/agent and neuralcut/webmcp) to a timeline view, a preview, a tool console, an asset
// bin and an agent sidebar (neuralcut/panel's <neuralcut-agent-panel>). Served by scripts/demo.mjs (`npm run demo`), which writes the import
// map and says in /config.json which entries exist and whether the Gemini proxy is mounted.
import { createAssetBin } from "./assets.js";
import { createClock } from "./clock.js";
import { createPreview } from "./preview.js";
import { createDemoEditor } from "./project.js";
import { setupExport } from "./exporter.js";
import { createTimelineView } from "./timeline.js";
import { createToolConsole } from "./toolconsole.js";
import { formatTime, h, store } from "./util.js";

const $ = (id) => document.getElementById(id);

function badge(key, label, value, kind = "") {
  let node = document.querySelector(`.badge[data-key="${key}"]`);
  if (!node) {
    node = h("span", { class: "badge", dataset: { key } });
    $("badges").append(node);
  }
  node.className = `badge ${kind}`;
  node.replaceChildren(`${label} `, h("b", {}, value));
  return node;
}

/** The editor as a renderer reads it, with the sample media's URLs where it holds no source. */
function withSources(editor, sources) {
  return {
    frameAt: (t) => editor.frameAt(t),
    project: () => editor.project(),
    assetSource: (id) => editor.assetSource(id) ?? (sources.has(id) ? { url: new URL(sources.get(id).url, location.href).href } : undefined),
  };
}

/** The preview's compositor (neuralcut/render, which brings the GPU effects with it). */
async function loadRenderer() {
  try {
    const { createFrameRenderer } = await import("neuralcut/render");
    return { create: createFrameRenderer };
  } catch (e) {
    console.warn("neuralcut/render unavailable:", e);
    return { create: null, error: e instanceof Error ? e.message : String(e) };
  }
}

async function setupWebMcp(editor, has) {
  const modelContext = document.modelContext ?? navigator.modelContext;
  if (!has) return badge("webmcp", "WebMCP", "module not built", "warn");
  if (!modelContext) return badge("webmcp", "WebMCP", "not offered by this browser");
  try {
    const { registerWebMcpTools } = await import("neuralcut/webmcp");
    const registration = await registerWebMcpTools(editor, { modelContext });
    window.demo.webmcp = registration;
    badge("webmcp", "WebMCP", `${registration?.names?.length ?? editor.tools().length} tools registered`, "ok");
  } catch (e) {
    console.warn("WebMCP registration failed:", e);
    badge("webmcp", "WebMCP", "registration failed", "err");
  }
}

/** What ui.inspect reports and ui.set changes: the state a user sees and sets in this page. */
function demoUi({ clock, selection, timeline, showTab, editor }) {
  const panels = ["preview", "tools", "agent", "timeline"];
  const inspect = () => ({
    playhead: Math.round(clock.get().time * 1e6) / 1e6,
    playing: clock.get().playing,
    selection: selection.get()?.elementIds ?? [],
    zoom: timeline.pxPerSecond(),
    zoomFactor: timeline.zoom(),
    panels,
    tab: document.querySelector(".tab.active")?.dataset.tab,
    focused: document.activeElement?.getAttribute("data-automation-id") ?? null,
    revision: editor.revision(),
  });
  const set = (params) => {
    const known = ["playhead", "playing", "selection", "zoom", "tab"];
    for (const key of Object.keys(params)) {
      if (!known.includes(key))
        throw Object.assign(new Error(`unknown parameter "${key}" for ui.set; expected: ${known.join(", ")}`), { code: "INVALID_PARAMS" });
    }
    const fail = (message) => Object.assign(new Error(message), { code: "INVALID_PARAMS" });
    if (params.playhead !== undefined) {
      if (typeof params.playhead !== "number" || !(params.playhead >= 0)) throw fail("playhead must be seconds >= 0");
      clock.pause();
      clock.seek(params.playhead);
    }
    if (params.playing !== undefined) {
      if (typeof params.playing !== "boolean") throw fail("playing must be true or false");
      if (params.playing) clock.play();
      else clock.pause();
    }
    if (params.selection !== undefined) {
      const ids = params.selection;
      if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) throw fail("selection must be a list of element ids");
      const tracks = editor.project().timeline?.tracks ?? [];
      const found = ids.map((id) => tracks.flatMap((t) => (t.elements ?? []).filter((e) => e.id === id).map((e) => ({ track: t, e })))[0]);
      const missing = ids.filter((_, i) => !found[i]);
      if (missing.length) throw Object.assign(new Error(`no element ${missing.join(", ")} on the timeline`), { code: "NO_ELEMENT" });
      const last = found.at(-1);
      selection.set(ids.length ? { elementIds: ids, elementId: last.e.id, trackId: last.track.id, type: last.e.type } : null);
    }
    if (params.zoom !== undefined) {
      if (typeof params.zoom !== "number" || !(params.zoom > 0)) throw fail("zoom must be pixels per second > 0");
      timeline.setZoom((params.zoom / timeline.pxPerSecond()) * timeline.zoom());
    }
    if (params.tab !== undefined) {
      if (params.tab !== "console" && params.tab !== "assets") throw fail("tab must be console or assets");
      showTab(params.tab);
    }
    return inspect();
  };
  return { inspect, set };
}

async function setupBridge({ editor, clock, selection, timeline, showTab, has }) {
  if (!has("neuralcut/bridge")) return badge("bridge", "control", "module not built", "warn");
  try {
    const { connectBridge } = await import("neuralcut/bridge");
    const { url, token } = window.demo.config.bridge;
    window.demo.bridge = connectBridge({
      url,
      token,
      editor,
      ui: demoUi({ clock, selection, timeline, showTab, editor }),
      // render_preview gets a renderer of its own, made on first use, so the preview stays put.
      renderer: has("neuralcut/render") ? () => import("neuralcut/render").then((m) => m.createFrameRenderer({ editor })) : undefined,
      onStatus: (status) => badge("bridge", "control", status === "open" ? "connected" : status, status === "open" ? "ok" : "warn"),
    });
  } catch (e) {
    console.warn("control channel failed:", e);
    badge("bridge", "control", "failed", "err");
  }
}

const CLIENT_KEY = "neuralcut-demo-client";

/** This tab's client id at the proxy (its per-client budgets). */
function clientId() {
  let id = sessionStorage.getItem(CLIENT_KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,128}$/.test(id)) {
    id = `demo_${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
    sessionStorage.setItem(CLIENT_KEY, id);
  }
  return id;
}

/** The agent sidebar: neuralcut/panel's element, given the editor and the demo server's proxy. */
async function setupAgent({ editor, config, sources, clock, has }) {
  const off = $("agent-off");
  const say = (text) => {
    off.textContent = text;
    off.hidden = false;
  };
  if (!has("neuralcut/panel") || !has("neuralcut/agent")) {
    say("The agent panel (neuralcut/panel) is not built yet, so the agent is off. Run npm run build, then reload.");
    return { status: "module not built" };
  }
  await import("neuralcut/panel");
  const panel = $("agent-panel");
  panel.playhead = () => clock.get().time;
  if (has("neuralcut/render")) {
    // A headless renderer of its own draws the thumbnail after each run, with the demo's media.
    let renderer;
    panel.renderFrame = async (seconds) => {
      renderer ??= await import("neuralcut/render").then((m) => m.createFrameRenderer({ editor: withSources(editor, sources) }));
      await renderer.render(seconds, { width: 320 });
      return renderer.toBlob("image/png");
    };
  }
  if (!config.agent) {
    panel.disabledReason =
      "No Gemini API key is configured, so the agent is off. To chat with it, stop the server and start it again with GEMINI_API_KEY=your-key npm run demo (the key stays on the server). Everything else on this page works without it.";
    panel.editor = editor;
    return { status: "no key", panel };
  }
  const agentModule = await import("neuralcut/agent");
  const modelSelect = $("agent-model");
  const models = config.agent.models?.length ? config.agent.models : [agentModule.DEFAULT_MODEL];
  for (const m of models) modelSelect.append(h("option", { value: m }, m));
  modelSelect.value = models.includes(agentModule.DEFAULT_MODEL) ? agentModule.DEFAULT_MODEL : models[0];
  $("agent-model-row").hidden = false;
  modelSelect.addEventListener("change", () => (panel.model = modelSelect.value));

  panel.agentOptions = {
    clientId: clientId(),
    connectContext: false,
    // The run's check draws frames for its black and frozen findings, with the demo's media.
    checkRenderer: has("neuralcut/render")
      ? () => import("neuralcut/render").then((m) => m.createFrameRenderer({ editor: withSources(editor, sources) }))
      : undefined,
  };
  panel.model = modelSelect.value;
  panel.editor = editor;
  panel.proxyUrl = new URL(config.agent.proxyUrl, location.href).href;
  // The demo's own media are loaded from URLs the editor does not know: fill them in, through
  // whichever agent the panel holds now (a new model makes a new one).
  editor.setContextProvider({
    get supportedTypes() {
      return panel.agent?.contextProvider.supportedTypes;
    },
    load: (request) => {
      const has = request.source && (request.source.file || request.source.url);
      const known = sources.get(request.asset.id);
      const source = has || !known ? request.source : { url: new URL(known.url, location.href).href };
      return panel.agent.contextProvider.load({ ...request, source });
    },
  });
  return { status: "on", panel, send: (text) => panel.send(text) };
}

async function main() {
  const config = await (await fetch("/config.json")).json();
  const has = (name) => config.modules.includes(name);
  window.demo = { config };

  const { editor, sources } = await createDemoEditor();
  const selection = store(null);
  let duration = () => 10;
  const clock = createClock({ duration: () => duration() });
  badge("engine", "engine", "wasm ready", "ok");

  // ---- preview + effects ----
  let render = { create: null, error: "module not built" };
  if (has("neuralcut/render")) render = await loadRenderer();
  const note = $("effects-note");
  const preview = await createPreview({
    editor,
    sources,
    canvas: $("preview-canvas"),
    stack: $("preview"),
    clock,
    createRenderer: render.create && ((canvas, media) => render.create({ editor: withSources(editor, sources), canvas, media })),
    onStatus: ({ effects: active, applied, failure }) => {
      if (active.length === 0 && !failure) {
        note.textContent = "No effect at the playhead.";
        return;
      }
      const names = active.map((f) => `${f.effectType} (${f.elementId})`).join(", ");
      let text;
      if (failure) text = `Effects at the playhead: ${names || "none"}. The renderer failed: ${failure}`;
      else if (applied) text = `Effects applied (frames drawn with ${preview.renderer.backend}): ${names}`;
      else text = `Effects at the playhead: ${names}, not applied: the compositor is unavailable.`;
      note.replaceChildren(h("span", { class: failure ? "failed" : "active" }, text));
    },
  });
  const effects = { renderer: preview.renderer };
  // The badge's title says why "auto" chose this backend (a software GPU gets Canvas2D).
  if (preview.renderer) badge("effects", "effects", preview.renderer.backend, "ok").title = preview.renderer.backendReason;
  else badge("effects", "effects", render.error ?? "unavailable", render.create ? "err" : "warn");
  duration = preview.duration;

  // ---- transport ----
  const play = $("play");
  const seek = $("seek");
  const timecode = $("timecode");
  function showClock({ time, playing }) {
    play.textContent = playing ? "❚❚ Pause" : "▶ Play";
    seek.max = String(Math.max(duration(), 0.01));
    seek.value = String(time);
    timecode.textContent = `${formatTime(time)} / ${formatTime(duration())}`;
  }
  clock.subscribe(showClock);
  editor.onChange(() => showClock(clock.get()));
  play.addEventListener("click", () => clock.toggle());
  $("to-start").addEventListener("click", () => (clock.pause(), clock.seek(0)));
  seek.addEventListener("input", () => (clock.pause(), clock.seek(Number(seek.value))));
  showClock(clock.get());
  const canvasInfo = editor.project().settings?.canvas;
  $("preview-info").textContent = canvasInfo ? `${canvasInfo.width}×${canvasInfo.height} project, drawn at full size on the GPU` : "";

  // ---- timeline ----
  const showResult = (what, out) => {
    const r = $("tool-result");
    r.className = `tool-result ${out?.error ? "error" : "ok"}`;
    r.textContent = `${what}\n${JSON.stringify(out, null, 2)}`;
  };
  const timeline = createTimelineView({
    container: $("timeline"),
    info: $("timeline-info"),
    editor,
    clock,
    selection,
    zoomButtons: { in: $("zoom-in"), out: $("zoom-out"), fit: $("zoom-fit") },
    onError: (tool, out) => showResult(`${tool}: refused`, out),
  });

  // ---- tool console ----
  const toolConsole = createToolConsole({
    editor,
    clock,
    selection,
    elements: {
      select: $("tool-select"),
      desc: $("tool-desc"),
      args: $("tool-args"),
      run: $("tool-run"),
      reset: $("tool-reset"),
      result: $("tool-result"),
      status: $("tool-status"),
    },
  });
  selection.subscribe(() => toolConsole.fill());

  // ---- tabs ----
  function showTab(name) {
    for (const tab of document.querySelectorAll(".tab")) {
      const on = tab.dataset.tab === name;
      tab.classList.toggle("active", on);
      tab.setAttribute("aria-selected", String(on));
      $(`tab-${tab.dataset.tab}`).hidden = !on;
    }
  }
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));

  // ---- assets + import ----
  const bin = createAssetBin({
    editor,
    sources,
    clock,
    list: $("asset-list"),
    count: $("asset-count"),
    notify: showResult,
  });
  const importInput = $("import-input");
  importInput.addEventListener("change", async () => {
    const files = [...importInput.files];
    importInput.value = "";
    showTab("assets");
    await bin.importFiles(files);
  });
  const dropHint = $("drop-hint");
  let dragDepth = 0;
  document.addEventListener("dragenter", (e) => {
    if (![...(e.dataTransfer?.types ?? [])].includes("Files")) return;
    dragDepth++;
    dropHint.hidden = false;
  });
  document.addEventListener("dragleave", () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) dropHint.hidden = true;
  });
  document.addEventListener("dragover", (e) => e.preventDefault());
  document.addEventListener("drop", async (e) => {
    e.preventDefault();
    dragDepth = 0;
    dropHint.hidden = true;
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) {
      showTab("assets");
      await bin.importFiles(files);
    }
  });

  // ---- export (neuralcut/export) ----
  if (has("neuralcut/export")) setupExport({ editor, sources, clock });

  // ---- undo / redo ----
  const undo = $("undo");
  const redo = $("redo");
  const refreshHistory = () => {
    undo.disabled = !editor.canUndo();
    redo.disabled = !editor.canRedo();
  };
  editor.onChange(refreshHistory);
  refreshHistory();
  undo.addEventListener("click", () => editor.undo());
  redo.addEventListener("click", () => editor.redo());
  document.addEventListener("keydown", (e) => {
    // composedPath: inside a shadow root (the agent panel) e.target is only its host element.
    const t = e.composedPath()[0] ?? e.target;
    const typing =
      t instanceof HTMLElement &&
      (t.isContentEditable || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["checkbox", "range", "file", "button"].includes(t.type)));
    if (typing) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === "z") {
      e.preventDefault();
      if (e.shiftKey) editor.redo();
      else editor.undo();
    } else if (mod && key === "y" && !e.metaKey) {
      e.preventDefault();
      editor.redo();
    } else if (key === " " && !mod && t.tagName !== "BUTTON" && t.tagName !== "SELECT") {
      e.preventDefault();
      clock.toggle();
    } else if (key === "s" && !mod && !e.altKey) {
      // S: split at the playhead (every element under it), one undo step.
      e.preventDefault();
      const at = Math.round(clock.get().time * 1000) / 1000;
      editor.callTool("split", { times: [at] }).then((out) => out?.error && showResult("split: refused", out));
    } else if ((e.key === "Delete" || e.key === "Backspace") && !mod) {
      const ids = selection.get()?.elementIds ?? [];
      if (ids.length === 0) return;
      e.preventDefault();
      editor.callTool("delete_timeline_elements", { elementIds: ids }).then((out) => (out?.error ? showResult("delete: refused", out) : selection.set(null)));
    } else if (e.key === "Escape" && !mod) {
      selection.set(null);
    }
  });

  Object.assign(window.demo, { editor, sources, clock, preview, selection, timeline, toolConsole, importFiles: bin.importFiles, effects: effects.renderer });

  // ---- control channel (npm run demo -- --control PORT) ----
  if (config.bridge) await setupBridge({ editor, clock, selection, timeline, showTab, has });

  // ---- agent + WebMCP ----
  badge("agent", "agent", config.agent ? "proxy on" : "no API key", config.agent ? "ok" : "warn");
  const agentPanel = await setupAgent({ editor, config, sources, clock, has });
  if (config.agent && agentPanel.status !== "on") badge("agent", "agent", agentPanel.status, "warn");
  window.demo.agent = agentPanel;
  await setupWebMcp(editor, has("neuralcut/webmcp"));

  await preview.requestRender();
  document.body.dataset.ready = "true";
}

main().catch((e) => {
  document.body.dataset.ready = "failed";
  const box = h("div", { class: "msg error", style: { margin: "12px" } }, `The demo failed to start: ${e instanceof Error ? e.message : String(e)}`);
  document.body.prepend(box);
  throw e;
});

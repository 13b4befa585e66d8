// The NeuralCut demo page: wires the package (neuralcut and, when built, neuralcut/effects,
// neuralcut/agent and neuralcut/webmcp) to a timeline view, a preview, a tool console, an asset
// bin and an agent sidebar. Served by scripts/demo.mjs (`npm run demo`), which writes the import
// map and says in /config.json which entries exist and whether the Gemini proxy is mounted.
import { createAgentPanel } from "./agentpanel.js";
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
    createRenderer: render.create && ((canvas, media) => render.create({ editor, canvas, media })),
    onStatus: ({ effects: active, applied, failure }) => {
      if (active.length === 0 && !failure) {
        note.textContent = "No effect at the playhead.";
        return;
      }
      const names = active.map((f) => `${f.effectType} (${f.elementId})`).join(", ");
      let text;
      if (failure) text = `Effects at the playhead: ${names || "none"}. The GPU renderer failed: ${failure}`;
      else if (applied) text = `Effects applied on the GPU (${preview.renderer.backend}): ${names}`;
      else text = `Effects at the playhead: ${names}, not applied: the compositor is unavailable.`;
      note.replaceChildren(h("span", { class: failure ? "failed" : "active" }, text));
    },
  });
  const effects = { renderer: preview.renderer };
  if (preview.renderer) badge("effects", "effects", preview.renderer.backend, "ok");
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
  createTimelineView({
    container: $("timeline"),
    info: $("timeline-info"),
    editor,
    clock,
    selection,
    zoomButtons: { in: $("zoom-in"), out: $("zoom-out"), fit: $("zoom-fit") },
  });

  // ---- tool console ----
  const toolConsole = createToolConsole({
    editor,
    clock,
    selection,
    elements: { select: $("tool-select"), desc: $("tool-desc"), args: $("tool-args"), run: $("tool-run"), reset: $("tool-reset"), result: $("tool-result"), status: $("tool-status") },
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
    notify: (what, out) => {
      const r = $("tool-result");
      r.className = `tool-result ${out?.error ? "error" : "ok"}`;
      r.textContent = `${what}\n${JSON.stringify(out, null, 2)}`;
    },
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
    const t = e.target;
    const typing = t instanceof HTMLElement && (t.isContentEditable || t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["checkbox", "range", "file", "button"].includes(t.type)));
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
    }
  });

  Object.assign(window.demo, { editor, sources, clock, preview, selection, toolConsole, importFiles: bin.importFiles, effects: effects.renderer });

  // ---- agent + WebMCP ----
  badge("agent", "agent", config.agent ? "proxy on" : "no API key", config.agent ? "ok" : "warn");
  const agentPanel = await createAgentPanel({
    editor,
    config,
    sources,
    hasModule: has("neuralcut/agent"),
    elements: {
      log: $("agent-log"),
      form: $("agent-form"),
      input: $("agent-input"),
      send: $("agent-send"),
      confirmBox: $("agent-confirm"),
      modelRow: $("agent-model-row"),
      modelSelect: $("agent-model"),
      resetButton: $("agent-reset"),
    },
  });
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

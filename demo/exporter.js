// The Export button: renders the timeline to a video file with neuralcut/export in this page
// (the compositor's frames, the timeline's sound, WebCodecs), with a progress bar, cancel and a
// download link. docs/export.md.
const $ = (id) => document.getElementById(id);

/** Sizes offered: the project's, then common smaller widths that keep its aspect. */
function sizes(canvas) {
  const widths = [canvas.width, 1920, 1280, 854, 640].filter((w, i, a) => w <= canvas.width && a.indexOf(w) === i);
  return widths.map((w) => ({ width: w, label: `${w}×${Math.round((w * canvas.height) / canvas.width)}${w === canvas.width ? " (project)" : ""}` }));
}

export function setupExport({ editor, sources, clock }) {
  const open = $("export-open");
  const dialog = $("export-dialog");
  const format = $("export-format");
  const size = $("export-size");
  const bar = $("export-progress");
  const status = $("export-status");
  const download = $("export-download");
  const start = $("export-start");
  const cancel = $("export-cancel");
  let running = null; // the AbortController of the export in progress
  let lastUrl = null;
  open.hidden = false;

  const setRunning = (on) => {
    start.disabled = on;
    format.disabled = on;
    size.disabled = on;
    cancel.textContent = on ? "Cancel" : "Close";
  };

  open.addEventListener("click", () => {
    const canvas = editor.project().settings?.canvas ?? { width: 1920, height: 1080 };
    size.replaceChildren(...sizes(canvas).map((s) => Object.assign(document.createElement("option"), { value: String(s.width), textContent: s.label })));
    size.value = String(Math.min(canvas.width, 1280));
    if (!size.value) size.selectedIndex = 0;
    bar.value = 0;
    status.textContent = "";
    download.hidden = true;
    setRunning(false);
    dialog.showModal();
  });

  cancel.addEventListener("click", () => {
    if (running) running.abort();
    else dialog.close();
  });
  dialog.addEventListener("cancel", (e) => {
    // Escape cancels a running export instead of hiding it.
    if (running) {
      e.preventDefault();
      running.abort();
    }
  });

  start.addEventListener("click", async () => {
    clock.pause?.();
    const { exportVideo } = await import("neuralcut/export");
    const ac = new AbortController();
    running = ac;
    setRunning(true);
    download.hidden = true;
    bar.value = 0;
    status.textContent = "Starting…";
    // The demo's media live in `sources` (the sample files, imported files); the editor knows the rest.
    const source = {
      frameAt: (t) => editor.frameAt(t),
      project: () => editor.project(),
      audioPlan: (a, b, s) => editor.audioPlan(a, b, s),
      assetSource: (id) => sources.get(id) ?? editor.assetSource(id),
    };
    const began = performance.now();
    try {
      const result = await exportVideo(source, {
        format: format.value,
        width: Number(size.value),
        signal: ac.signal,
        onProgress: (p) => {
          bar.value = p.progress;
          status.textContent = `Frame ${p.framesDone} of ${p.totalFrames}`;
        },
      });
      if (lastUrl) URL.revokeObjectURL(lastUrl);
      lastUrl = URL.createObjectURL(result.blob);
      download.href = lastUrl;
      download.download = `neuralcut-export.${result.format}`;
      download.textContent = `Download ${download.download} (${(result.blob.size / 1e6).toFixed(1)} MB)`;
      download.hidden = false;
      const seconds = (performance.now() - began) / 1000;
      const missing = result.missing.length ? `; not drawn or silent: ${result.missing.map((m) => m.elementId).join(", ")}` : "";
      status.textContent = `${result.width}×${result.height}, ${result.videoCodec}${result.audioCodec ? ` + ${result.audioCodec}` : ""}, ${result.duration.toFixed(2)} s in ${seconds.toFixed(1)} s${missing}`;
      window.demo.lastExport = { ...result, blob: undefined, size: result.blob.size };
    } catch (e) {
      status.textContent = ac.signal.aborted ? "Cancelled; nothing was kept." : `Export failed: ${e instanceof Error ? e.message : String(e)}`;
      window.demo.lastExport = { error: ac.signal.aborted ? "cancelled" : String(e?.message ?? e) };
    } finally {
      running = null;
      setRunning(false);
    }
  });
}

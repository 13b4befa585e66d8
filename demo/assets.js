// The asset bin: the project's assets, and import of the user's own files. Metadata (duration,
// size) is read here in the browser with media elements; the File stays in the page.
import { formatTime, h } from "./util.js";

const EXTENSIONS = {
  video: ["mp4", "webm", "mov", "mkv", "ogv", "m4v"],
  audio: ["mp3", "wav", "ogg", "oga", "opus", "m4a", "aac", "flac"],
  image: ["png", "jpg", "jpeg", "gif", "webp", "svg", "avif", "bmp"],
};

export function assetTypeOf(file) {
  const major = (file.type || "").split("/")[0];
  if (major === "video" || major === "audio" || major === "image") return major;
  const ext = (file.name.split(".").pop() ?? "").toLowerCase();
  return Object.keys(EXTENSIONS).find((t) => EXTENSIONS[t].includes(ext)) ?? null;
}

function loadMedia(el, url) {
  return new Promise((resolve, reject) => {
    el.preload = "metadata";
    el.onloadedmetadata = () => resolve(el);
    el.onerror = () => reject(new Error("this browser cannot read it"));
    el.src = url;
  });
}

/** Reads { type, duration?, width?, height? } of a File; throws when the browser cannot decode it. */
export async function readMetadata(file) {
  const type = assetTypeOf(file);
  if (!type) throw new Error("not a video, audio or image file");
  const url = URL.createObjectURL(file);
  try {
    if (type === "image") {
      const img = new Image();
      img.src = url;
      await img.decode().catch(() => {
        throw new Error("this browser cannot decode the image");
      });
      return { type, url, width: img.naturalWidth, height: img.naturalHeight };
    }
    const el = await loadMedia(document.createElement(type), url);
    let duration = el.duration;
    if (!Number.isFinite(duration)) {
      // Recorded WebM often has no duration in its header: seeking far ahead makes the browser find it.
      await new Promise((resolve) => {
        el.ondurationchange = () => Number.isFinite(el.duration) && resolve();
        el.currentTime = 1e9;
        setTimeout(resolve, 3000);
      });
      duration = el.duration;
    }
    if (!Number.isFinite(duration) || duration <= 0) throw new Error("its duration could not be read");
    const meta = { type, url, duration: Math.round(duration * 1000) / 1000 };
    if (type === "video" && el.videoWidth) Object.assign(meta, { width: el.videoWidth, height: el.videoHeight });
    el.removeAttribute("src");
    return meta;
  } catch (e) {
    URL.revokeObjectURL(url);
    throw e;
  }
}

export function createAssetBin({ editor, sources, list, count, notify, clock }) {
  const notes = [];

  function urlOf(id) {
    return sources.get(id)?.url ?? editor.assetSource(id)?.url;
  }

  async function addToTimeline(asset) {
    const args = { assetId: asset.id, startTime: Math.round(clock.get().time * 100) / 100, trackType: asset.type === "audio" ? "audio" : "overlay" };
    const out = await editor.callTool("add_media_to_timeline", args);
    notify(`add_media_to_timeline ${JSON.stringify(args)}`, out);
  }

  const thumbs = new Map();
  /** A picture of the asset (kept across redraws, so videos are not loaded again). */
  function thumbFor(a, url) {
    const key = `${a.id} ${url}`;
    if (!thumbs.has(key)) {
      let node;
      if (url && a.type === "image") node = h("img", { class: "asset-thumb", src: url, alt: "" });
      else if (url && a.type === "video") node = h("video", { class: "asset-thumb", src: `${url}#t=0.5`, muted: true, preload: "metadata", tabIndex: -1 });
      else node = h("span", { class: "asset-thumb" }, a.type === "audio" ? "♪" : "▣");
      thumbs.set(key, node);
    }
    return thumbs.get(key);
  }

  function render() {
    const assets = editor.project().assets ?? [];
    count.textContent = String(assets.length);
    const items = assets.map((a) => {
      const url = urlOf(a.id);
      const thumb = thumbFor(a, url);
      const facts = [a.type, a.duration !== undefined ? formatTime(a.duration) : null, a.width ? `${a.width}×${a.height}` : null, a.id]
        .filter(Boolean)
        .join(" · ");
      return h(
        "li",
        { dataset: { assetId: a.id } },
        thumb,
        h("div", { class: "asset-meta" }, h("div", { class: "name", title: a.name }, a.name), h("div", { class: "sub" }, facts)),
        h(
          "button",
          {
            type: "button",
            title: `Place it on the timeline at the playhead (${a.type === "audio" ? "audio" : "overlay"} track)`,
            "aria-label": `Place ${a.name} on the timeline`,
            dataset: { automationId: `assets.${a.id}.add` },
            onclick: () => addToTimeline(a),
          },
          "+ timeline",
        ),
      );
    });
    list.replaceChildren(...items, ...notes.map((n) => h("li", { class: "muted small" }, n)));
  }

  /** Imports files as assets. Resolves to the ids added. */
  async function importFiles(files) {
    const added = [];
    for (const file of files) {
      try {
        const { url, ...meta } = await readMetadata(file);
        const id = editor.addAsset({ name: file.name, ...meta, file, url });
        added.push(id);
        notes.length = 0;
      } catch (e) {
        notes.unshift(`${file.name}: not imported (${e instanceof Error ? e.message : String(e)})`);
        notes.length = Math.min(notes.length, 3);
        render();
      }
    }
    return added;
  }

  editor.onChange(render);
  render();
  return { importFiles, render };
}

// The tool console: pick any tool, get its arguments prefilled from its input schema (with real
// ids from the project and the playhead's time), run it through editor.callTool, see the result
// or the error.
import { h, pretty, sec, timelineEnd } from "./util.js";

/** Picks the element a tool is most likely meant for: the selection, else one under the
 * playhead, else the first that fits. */
function pickElement(project, selection, types, time) {
  const tracks = project.timeline?.tracks ?? [];
  const sel = selection.get();
  if (sel && (!types || types.includes(sel.type))) {
    for (const track of tracks) {
      const e = (track.elements ?? []).find((x) => x.id === sel.elementId);
      if (e) return { elementId: e.id, trackId: track.id, type: e.type, start: sec(e.start), duration: sec(e.duration) };
    }
  }
  let first = null;
  for (const track of tracks) {
    for (const e of track.elements ?? []) {
      if (types && !types.includes(e.type)) continue;
      const found = { elementId: e.id, trackId: track.id, type: e.type, start: sec(e.start), duration: sec(e.duration) };
      if (found.start <= time && time < found.start + found.duration) return found;
      first ??= found;
    }
  }
  return first;
}

const round = (x) => Math.round(x * 100) / 100;

/** An example value for one argument of a tool. */
function exampleFor(tool, key, schema, ctx) {
  const { project, selection, time } = ctx;
  const types = {
    update_text: ["text"],
    update_effect: ["effect"],
    set_volume: ["video", "audio"],
  }[tool];
  const element = pickElement(project, selection, types, time);
  const assets = project.assets ?? [];
  switch (key) {
    case "assetId":
      return (assets.find((a) => a.type === "video") ?? assets[0])?.id ?? "a1";
    case "elementId":
      return element?.elementId ?? "e1";
    case "elementIds":
      return [element?.elementId ?? "e1"];
    case "trackId":
      return element?.trackId ?? "t1";
    case "times":
      return [round(time > 0 ? time : 1)];
    case "start":
    case "startTime":
      // Moving to the end of the timeline never lands on another element.
      if (tool === "move_timeline_elements") return round(timelineEnd(project) + 0.5);
      return round(time);
    case "duration":
      return round(Math.max(0.5, (element?.duration ?? 2) / 2));
    case "end":
      return round(time + 2);
    case "stickerId":
      return project.stickers?.[0]?.id ?? "emoji:star";
    case "effectType":
      return "sepia";
    case "text":
      return tool === "update_text" ? "Changed from the console" : "Hello from the console";
    case "volume":
      return 0.5;
    case "trackType": {
      const id = exampleFor(tool, "assetId", {}, ctx);
      return assets.find((a) => a.id === id)?.type === "audio" ? "audio" : "overlay";
    }
    case "position":
      return schema.enum?.includes("center") ? "center" : schema.enum?.[0];
    case "params":
      return tool === "update_effect" ? { intensity: 80 } : {};
    case "steps":
      return [
        { tool: "add_text", args: { text: "Batched title", start: round(time), end: round(time + 2), position: "center" } },
        { tool: "apply_effect", args: { effectType: "grayscale", start: round(time), end: round(time + 2) } },
      ];
  }
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case "number":
    case "integer":
      return schema.minimum ?? 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "";
  }
}

/** Arguments for a tool: its required ones, plus optional ones worth showing. */
export function prefill(tool, ctx) {
  const schema = tool.inputSchema ?? {};
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const args = {};
  for (const [key, prop] of Object.entries(props)) {
    const shown =
      (tool.name === "apply_effect" && key === "params") ||
      (tool.name === "update_text" && key === "text") ||
      (tool.name === "update_timeline_element_timing" && key === "duration");
    if (required.has(key) || shown) args[key] = exampleFor(tool.name, key, prop, ctx);
  }
  return args;
}

export function createToolConsole({ editor, elements, clock, selection, log }) {
  const { select, desc, args, run, reset, result, status } = elements;
  const tools = editor.tools();
  for (const t of tools) {
    const kind = t.annotations.readOnlyHint ? "reads" : t.annotations.destructiveHint ? "changes, destructive" : "changes";
    select.append(h("option", { value: t.name }, `${t.name} (${kind})`));
  }

  function current() {
    return tools.find((t) => t.name === select.value) ?? tools[0];
  }

  function fill() {
    const tool = current();
    const props = Object.entries(tool.inputSchema?.properties ?? {});
    const required = new Set(tool.inputSchema?.required ?? []);
    const optional = props.filter(([k]) => !required.has(k)).map(([k]) => k);
    desc.textContent = `${tool.title}. ${tool.description}${optional.length ? ` Optional: ${optional.join(", ")}.` : ""}`;
    args.value = pretty(prefill(tool, { project: editor.project(), selection, time: clock.get().time }));
  }

  async function execute() {
    const tool = current();
    let parsed;
    try {
      parsed = args.value.trim() === "" ? {} : JSON.parse(args.value);
    } catch (e) {
      show(false, `The arguments are not valid JSON: ${e.message}`, "not sent");
      return;
    }
    run.disabled = true;
    try {
      const out = await editor.callToolUntyped(tool.name, parsed);
      const failed = out && typeof out.error === "string";
      show(!failed, pretty(out), failed ? `error${out.code ? ` (${out.code})` : ""}` : "ok");
      log?.(tool.name, parsed, out);
    } catch (e) {
      show(false, e instanceof Error ? e.message : String(e), "threw");
    } finally {
      run.disabled = false;
    }
  }

  function show(ok, text, label) {
    result.className = `tool-result ${ok ? "ok" : "error"}`;
    result.textContent = text;
    status.textContent = `${select.value}: ${label}`;
  }

  select.addEventListener("change", fill);
  reset.addEventListener("click", fill);
  run.addEventListener("click", execute);
  args.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      execute();
    }
  });
  select.value = "split";
  fill();
  result.textContent = "Pick a tool, check its arguments, press Run (or Ctrl+Enter in the arguments).";
  return { fill, select: (name) => ((select.value = name), fill()), run: execute };
}

// The panel's one DOM helper, h(tag, props, ...children), and the formatting of values it shows.

export type Child = Node | string | null | undefined | false;

/** An element with attributes (`class`, `on<event>` listeners, `true` as an empty attribute) and children. */
export function h(tag: string, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") node.className = String(v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** A value as indented JSON, cut at 4,000 characters. */
export function json(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? "";
  return text.length > 4000 ? `${text.slice(0, 4000)}\n…` : text;
}

export function seconds(v: unknown): string {
  return typeof v === "number" ? `${Math.round(v * 100) / 100} s` : String(v);
}

/** An AbortError, the rejection of a card the user's Stop closed. */
export function stopped(): Error {
  const e = new Error("Stopped by the user");
  e.name = "AbortError";
  return e;
}

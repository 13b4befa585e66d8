// What a media-measuring host tool reads (detect_silences, detect_scenes): an asset, or the part
// of it an element plays, chosen by the same argument rules, and how the asset's bytes are opened
// for mediabunny in a page (its File or URL) or a Node session (its local file).
import type { Source } from "mediabunny";
import { TICKS_PER_SECOND, type AssetJson, type ProjectJson } from "../generated/tools.js";
import { toolError } from "../host-tools.js";
import type { ToolErrorResult } from "../types.js";
import { URL_SOURCE_OPTIONS } from "./url-options.js";

export type Mediabunny = typeof import("mediabunny");

/** What the tools read of an editor. */
export interface MediaEditor {
  project(): ProjectJson;
  assetSource(id: string): { file?: Blob; url?: string } | undefined;
}

/** Opens an asset's bytes for mediabunny (loaded on the tool's first call), or says why it cannot. */
export type OpenMedia = (assetId: string, mediabunny: Mediabunny) => Source | string;

/** The page's opener: the asset's File, else its URL. */
export function pageMedia(editor: MediaEditor): OpenMedia {
  return (id, { BlobSource, UrlSource }) => {
    const src = editor.assetSource(id);
    if (src?.file) return new BlobSource(src.file);
    if (src?.url) return new UrlSource(src.url, URL_SOURCE_OPTIONS);
    return `no source for asset ${id}`;
  };
}

/** A Node session's opener (`neuralcut mcp`, the CLI): the asset's local file (a path or a
 * file:// URL, as `mediaLocations` gives them). Node decodes PCM (WAV) itself; other codecs
 * need WebCodecs, which Node lacks, and are refused clearly by the tool. */
export function fileMedia(locate: (assetId: string) => string | undefined): OpenMedia {
  return (id, { FilePathSource }) => {
    const where = locate(id);
    if (!where) return `no file for asset ${id}`;
    if (where.startsWith("file://")) return new FilePathSource(decodeURIComponent(new URL(where).pathname));
    if (where.startsWith("/")) return new FilePathSource(where);
    return `asset ${id} is not a local file (${where.slice(0, 80)})`;
  };
}

/** A video or audio element as the project JSON holds it (what the mapping reads). */
export interface PlacedElement {
  id: string;
  type: string;
  assetId?: string;
  start: number;
  duration: number;
  trimStart?: number;
  retime?: { rate?: number };
}

/** The source seconds an element plays and their mapping to timeline seconds (OpenCut's retime:
 * source = trimStart + clipTime × rate). */
export interface Span {
  from: number;
  to: number;
  rate: number;
  toTimeline(source: number): number;
}

export function elementSpan(e: PlacedElement): Span {
  const rate = e.retime?.rate && e.retime.rate > 0 ? e.retime.rate : 1;
  const from = (e.trimStart ?? 0) / TICKS_PER_SECOND;
  const start = e.start / TICKS_PER_SECOND;
  const end = (e.start + e.duration) / TICKS_PER_SECOND;
  const to = from + Math.round(e.duration * rate) / TICKS_PER_SECOND;
  return { from, to, rate, toTimeline: (s) => Math.min(end, Math.max(start, start + (s - from) / rate)) };
}

/** The asset to measure and, for an element, the span it plays. */
export interface MediaTarget {
  asset: AssetJson;
  elementId?: string;
  span?: Span;
}

/**
 * `{ assetId? | elementId? }`: an element (its asset, the span it plays), an asset, or with
 * neither the project's one asset of `types`. The tool's error value otherwise.
 */
export function mediaTarget(
  editor: MediaEditor,
  args: Record<string, unknown>,
  tool: string,
  types: readonly ("video" | "audio")[],
): MediaTarget | ToolErrorResult {
  const { assetId, elementId } = args;
  for (const [k, v] of Object.entries({ assetId, elementId })) {
    if (v !== undefined && (typeof v !== "string" || v.trim() === "")) return toolError(`${k} must be a non-empty string`, "INVALID_ARGUMENT", { argument: k });
  }
  if (assetId !== undefined && elementId !== undefined) return toolError("Give assetId or elementId, not both", "INVALID_ARGUMENTS");
  let project: ProjectJson;
  try {
    project = editor.project();
  } catch {
    return toolError("No active project", "NO_ACTIVE_PROJECT");
  }
  const what = types.join(" or ");
  const unsupported = (of: string) => toolError("Unsupported asset type", "UNSUPPORTED_ASSET_TYPE", { hint: `${tool} takes a ${what} ${of}.` });
  const assets = project.assets ?? [];
  const tracks = ((project.timeline as { tracks?: { elements?: PlacedElement[] }[] } | null)?.tracks ?? []) as { elements?: PlacedElement[] }[];
  let element: PlacedElement | undefined;
  let id = assetId as string | undefined;
  if (typeof elementId === "string") {
    element = tracks.flatMap((t) => t.elements ?? []).find((e) => e.id === elementId);
    if (!element) return toolError("Element not found", "ELEMENT_NOT_FOUND", { hint: "Call list_timeline to get element ids." });
    if (!types.includes(element.type as "video") || !element.assetId) return unsupported("element");
    id = element.assetId;
  } else if (id === undefined) {
    const media = assets.filter((a) => types.includes(a.type as "video"));
    if (media.length !== 1)
      return toolError("assetId or elementId is required", "ASSET_REQUIRED", {
        hint: `${media.length === 0 ? `There is no ${what} asset.` : `Several ${what} assets qualify.`} Call list_project_assets and pass assetId, or list_timeline and pass elementId.`,
      });
    id = media[0].id;
  }
  const asset = assets.find((a) => a.id === id);
  if (!asset) return toolError("Asset not found", "ASSET_NOT_FOUND", { hint: "Call list_project_assets to get asset ids." });
  if (!types.includes(asset.type as "video")) return unsupported("asset");
  return element ? { asset, elementId: element.id, span: elementSpan(element) } : { asset };
}

export const round = (s: number) => Math.round(s * 1000) / 1000;

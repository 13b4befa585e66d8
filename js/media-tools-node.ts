// detect_silences and detect_scenes for a Node session (`neuralcut mcp`, the CLI), over the
// session's editor, with each asset's file found where render_preview finds it (mediaLocations).
// The call is checked here first, so a bad one never starts a browser. Node decodes PCM itself:
// detect_silences on a WAV runs here. Anything else (video, compressed audio) needs WebCodecs,
// so it runs, with the same tool code, in a headless Chromium started on first use behind the
// media gate of js/headless-files.ts, and closed after an idle minute.
import { merged } from "./check/index.js";
import { scenesRequest } from "./detect-scenes.js";
import { detectSilencesTool, silencesRequest } from "./detect-silences.js";
import { asNeuralCutError } from "./errors.js";
import { isToolError, type NeuralCutEditor } from "./editor.js";
import type { CheckTimelineArgs, CheckTimelineResult, DetectScenesArgs, DetectSilencesArgs, ProjectJson } from "./generated/tools.js";
import { defineHostTool, toolError, type HostTool } from "./host-tools.js";
import { fileMedia } from "./media/target.js";
import { firstLine, mediaLocations, onDemandPage, type PreviewEditor } from "./render-headless.js";
import { timelineEnd } from "./timeline-end.js";

/** Runs in the page: the tool itself over the project, its media served by the gate. */
async function pageTool({ base, tool, project, media, args }: { base: string; tool: string; project: string; media: Record<string, string>; args: unknown }) {
  const { createEditor } = await import(`${base}dist/index.js`);
  // Loads the engine's wasm, whose meters the tools use.
  (await createEditor()).dispose();
  const editor = { project: () => JSON.parse(project), assetSource: (id: string) => (media[id] ? { url: media[id] } : undefined) };
  const module = tool === "detect_scenes" ? await import(`${base}dist/detect-scenes.js`) : await import(`${base}dist/detect-silences.js`);
  const make = tool === "detect_scenes" ? module.detectScenesTool : module.detectSilencesTool;
  return (await make(editor).call(args)) as Record<string, unknown>;
}

/** Runs in the page: check_timeline's host kinds (the mix's silences, black and frozen
 * pictures drawn by neuralcut/render) over the project, its media served by the gate. */
async function pageCheck({ base, project, media }: { base: string; project: string; media: Record<string, string> }) {
  const { createEditor } = await import(`${base}dist/index.js`);
  const { createFrameRenderer } = await import(`${base}dist/render.js`);
  const { hostFindings } = await import(`${base}dist/check/index.js`);
  const real = await createEditor({ project });
  const editor = {
    project: () => real.project(),
    audioPlan: (from: number, to: number, step?: number) => real.audioPlan(from, to, step),
    frameAt: (t: number) => real.frameAt(t),
    assetSource: (id: string) => (media[id] ? { url: media[id] } : undefined),
  };
  let renderer: { destroy(): void } | undefined;
  try {
    return (await hostFindings(editor, async () => (renderer = await createFrameRenderer({ editor })))) as CheckTimelineResult["findings"];
  } finally {
    renderer?.destroy();
    real.dispose();
  }
}

export interface SessionMediaTools {
  tools: HostTool[];
  close(): Promise<void>;
}

export function sessionMediaTools(
  editor: PreviewEditor & Pick<NeuralCutEditor, "callToolUntyped" | "tools">,
  options: { projectDir?: string; paths: ReadonlyMap<string, string>; chromiumPath?: string; idleMs?: number },
): SessionMediaTools {
  const locate = () => mediaLocations(editor, editor.project(), options);
  const hosts = onDemandPage("media analysis", options);

  /** The call in the headless page; a browser that cannot start or a page that fails is DECODE_FAILED. */
  async function inPage(tool: string, assetId: string, args: unknown, decode: string): Promise<Record<string, unknown>> {
    try {
      return await hosts.use(async ({ page, base, serveMedia }) => {
        const project: ProjectJson = editor.project();
        const { urls, refused } = await serveMedia(new Map([...locate()].filter(([id]) => id === assetId)), true);
        if (!urls[assetId]) return toolError(decode, "DECODE_FAILED", { details: refused.get(assetId) ?? `no file for asset ${assetId}` });
        return await page.evaluate(pageTool, { base, tool, project: JSON.stringify(project), media: urls, args });
      });
    } catch (e) {
      return toolError(decode, "DECODE_FAILED", { details: firstLine(asNeuralCutError(e, "DECODE_FAILED")) });
    }
  }

  const inNode = detectSilencesTool(
    editor,
    fileMedia((id) => locate().get(id)),
  );
  const silences = defineHostTool("detect_silences", async (args: Partial<DetectSilencesArgs> & Record<string, unknown>, context) => {
    const request = silencesRequest(editor, args);
    if ("error" in request) return request;
    const here = await inNode.call(args, context);
    if (here.undecodable !== true) return here;
    return inPage("detect_silences", request.asset.id, args, "Failed to decode audio");
  });
  const scenes = defineHostTool("detect_scenes", async (args: Partial<DetectScenesArgs> & Record<string, unknown>) => {
    const request = scenesRequest(editor, args);
    if ("error" in request) return request;
    return inPage("detect_scenes", request.asset.id, args, "Failed to decode video");
  });
  // check_timeline with the host's kinds, judged in the page over the timeline's media files;
  // with none (or no browser) the engine's findings alone.
  const checkInfo = editor.tools().find((t) => t.name === "check_timeline");
  const check: HostTool | undefined = checkInfo && {
    ...checkInfo,
    async call(args: unknown) {
      const out = await editor.callToolUntyped("check_timeline", args);
      if (isToolError(out)) return out;
      const project = editor.project();
      const tracks = (project.timeline as { tracks?: { elements: { assetId?: string }[] }[] } | null)?.tracks ?? [];
      const used = new Set(tracks.flatMap((t) => t.elements.map((e) => e.assetId)));
      const files = new Map([...locate()].filter(([id]) => used.has(id)));
      if (files.size === 0) return out;
      try {
        const host = await hosts.use(async ({ page, base, serveMedia }) => {
          const { urls } = await serveMedia(files, true);
          return page.evaluate(pageCheck, { base, project: JSON.stringify(project), media: urls });
        });
        return merged(out as unknown as CheckTimelineResult, host, args as Partial<CheckTimelineArgs>, timelineEnd(project)) as unknown as Record<
          string,
          unknown
        >;
      } catch {
        return out;
      }
    },
  };
  return { tools: [silences, scenes, ...(check ? [check] : [])], close: () => hosts.close() };
}

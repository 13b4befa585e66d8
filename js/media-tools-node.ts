// detect_silences and detect_scenes for a Node session (`neuralcut mcp`, the CLI), over the
// session's editor, with each asset's file found where render_preview finds it (mediaLocations).
// The call is checked here first, so a bad one never starts a browser. Node decodes PCM itself:
// detect_silences on a WAV runs here. Anything else (video, compressed audio) needs WebCodecs,
// so it runs, with the same tool code, in a headless Chromium started on first use behind the
// media gate of js/headless-files.ts, and closed after an idle minute.
import { scenesRequest } from "./detect-scenes.js";
import { detectSilencesTool, silencesRequest } from "./detect-silences.js";
import { asNeuralCutError } from "./errors.js";
import type { DetectScenesArgs, DetectSilencesArgs, ProjectJson } from "./generated/tools.js";
import { defineHostTool, toolError, type HostTool } from "./host-tools.js";
import { fileMedia } from "./media/target.js";
import { firstLine, mediaLocations, onDemandPage, type PreviewEditor } from "./render-headless.js";

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

export interface SessionMediaTools {
  tools: HostTool[];
  close(): Promise<void>;
}

export function sessionMediaTools(
  editor: PreviewEditor,
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
  return { tools: [silences, scenes], close: () => hosts.close() };
}

// detect_silences for a Node session (`neuralcut mcp`, the CLI): the tool over the session's
// editor, reading each asset's file where render_preview would find it (mediaLocations).
import { detectSilencesTool } from "./detect-silences.js";
import { fileMedia } from "./media/target.js";
import type { HostTool } from "./host-tools.js";
import { mediaLocations, type PreviewEditor } from "./render-headless.js";

export function sessionSilences(editor: PreviewEditor, projectDir: string | undefined, paths: ReadonlyMap<string, string>): HostTool {
  return detectSilencesTool(
    editor,
    fileMedia((id) => mediaLocations(editor, editor.project(), { projectDir, paths }).get(id)),
  );
}

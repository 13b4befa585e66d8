// The host tools' catalog entries (media_import, transcribe_video, render_preview), generated from
// the Rust registry's HOST_TOOLS like the engine's own: one definition for their text, schemas,
// annotations and errors, whichever surface answers them.
import { HOST_TOOL_CATALOG, HOST_TOOL_ERRORS, type HostToolInfo, type HostToolName, type ToolInfo } from "./generated/tools.js";

/** A host tool's catalog entry, shaped like an engine tool's for the catalogs that list both. */
export function hostToolInfo(name: HostToolName): ToolInfo & Pick<HostToolInfo, "annotations"> {
  const entry = HOST_TOOL_CATALOG.find((t) => t.name === name);
  if (!entry) throw new Error(`no host tool ${name} in the generated catalog`);
  return structuredClone(entry) as unknown as ToolInfo & Pick<HostToolInfo, "annotations">;
}

export { HOST_TOOL_ERRORS };

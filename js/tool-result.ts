// The one shape of a tool's answer for MCP and WebMCP (a CallToolResult), whichever surface runs
// the tool: pictures first, then the output as JSON text and as structuredContent; a failure is
// the message as the first text block and the whole error value as JSON in the second, with no
// structuredContent (clients check it against the outputSchema, which describes success).

export type ToolResultBlock = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export interface ToolResult {
  content: ToolResultBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
}

/** A success: `images` (render_preview's frame, a screenshot) before the JSON, `notes` after it. */
export function successResult(out: Record<string, unknown>, images: readonly ToolResultBlock[] = [], notes: readonly string[] = []): ToolResult {
  return {
    content: [...images, { type: "text", text: JSON.stringify(out) }, ...notes.map((text) => ({ type: "text" as const, text }))],
    structuredContent: out,
  };
}

/** A tool's own failure: `{ error, code, ... }`. */
export function errorResult(error: Record<string, unknown> & { error: string }): ToolResult {
  return {
    content: [
      { type: "text", text: error.error },
      { type: "text", text: JSON.stringify(error) },
    ],
    isError: true,
  };
}

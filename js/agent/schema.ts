// Tool catalog -> Gemini function declarations. The registry's schemas are JSON Schema 2020-12;
// `parametersJsonSchema` takes a subset of it. Keywords outside the subset are dropped (the
// engine validates every argument anyway, and its errors are fed back to the model), with
// numeric bounds it cannot express folded into the description.

import type { FunctionDeclaration } from "./client.js";

const KEEP = new Set([
  "type",
  "description",
  "enum",
  "items",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "properties",
  "required",
  "anyOf",
  "format",
  "title",
]);
const FORMATS = new Set(["date-time", "date", "time"]);

type Schema = Record<string, unknown>;

function isObject(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** One schema node in Gemini's subset. */
export function toGeminiSchema(schema: unknown): Schema {
  if (!isObject(schema)) return {};
  const out: Schema = {};
  const notes: string[] = [];
  for (const [k, v] of Object.entries(schema)) {
    if (k === "properties" && isObject(v)) {
      out.properties = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toGeminiSchema(s)]));
    } else if (k === "items") {
      out.items = toGeminiSchema(v);
    } else if (k === "anyOf" || k === "oneOf") {
      if (Array.isArray(v)) out.anyOf = v.map(toGeminiSchema);
    } else if (k === "additionalProperties") {
      // `false` is the engine's strictness (it names an unknown argument); a schema is kept.
      if (isObject(v)) out.additionalProperties = toGeminiSchema(v);
    } else if (k === "const") {
      out.enum = [v];
    } else if (k === "exclusiveMinimum" && typeof v === "number") {
      notes.push(`greater than ${v}`);
    } else if (k === "exclusiveMaximum" && typeof v === "number") {
      notes.push(`less than ${v}`);
    } else if (k === "minLength" && typeof v === "number" && v > 0) {
      notes.push("non-empty");
    } else if (k === "format") {
      if (typeof v === "string" && FORMATS.has(v)) out.format = v;
    } else if (KEEP.has(k)) {
      out[k] = v;
    }
  }
  // A list of types becomes anyOf of single types.
  if (Array.isArray(out.type)) {
    const types = out.type as unknown[];
    delete out.type;
    out.anyOf = types.map((t) => ({ type: t }));
  }
  if (notes.length) out.description = [out.description, `(${notes.join(", ")})`].filter(Boolean).join(" ");
  return out;
}

export interface DeclarableTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** Function declarations for Gemini from tool catalog entries. */
export function toFunctionDeclarations(tools: DeclarableTool[]): FunctionDeclaration[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: toGeminiSchema(t.inputSchema) }));
}

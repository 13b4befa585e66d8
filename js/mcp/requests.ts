// The requests the NeuralCut MCP server serves (its own handlers in server.ts, plus initialize and
// ping, which the SDK's Server answers), and the check of their params that runs before the SDK
// sees them. The SDK parses params with these same zod schemas but answers a failure with -32603
// and zod's issue list as the message; JSON-RPC wants -32602 naming the field. The schemas are the
// SDK's, so what passes here is exactly what the handlers accept.
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly Issue[] } };
}

interface Issue {
  code: string;
  path: readonly PropertyKey[];
  expected?: string;
  values?: readonly unknown[];
  errors?: readonly (readonly Issue[])[];
}

/** Every request method the server answers, with the SDK schema its handler parses. */
export const SERVED_REQUESTS: Readonly<Record<string, Schema>> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "resources/subscribe": SubscribeRequestSchema,
  "resources/unsubscribe": UnsubscribeRequestSchema,
};

/** At most this many problems are named in one message. */
const MAX_NAMED = 3;

const NOUNS: Record<string, string> = {
  object: "an object",
  record: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "a boolean",
};

/** What is wrong with the params of a served request, or undefined when nothing is (or the
 * method is not served: the SDK answers -32601 then). `field` is the first field named. */
export function paramsProblem(method: string, params: unknown): { message: string; field: string } | undefined {
  const schema = Object.hasOwn(SERVED_REQUESTS, method) ? SERVED_REQUESTS[method] : undefined;
  if (!schema) return undefined;
  const parsed = schema.safeParse(params === undefined ? { method } : { method, params });
  if (parsed.success) return undefined;
  const named = parsed.error.issues.slice(0, MAX_NAMED).map((issue) => {
    const path = issue.path[0] === "params" ? issue.path.slice(1) : issue.path;
    const field = path.length === 0 ? "params" : fieldName(path);
    return { field, text: `${JSON.stringify(field)} ${describe(issue, valueAt(params, path))}` };
  });
  const more = parsed.error.issues.length - named.length;
  return { message: `Invalid params: ${named.map((n) => n.text).join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`, field: named[0].field };
}

/** `_meta.progressToken`, `capabilities.roots`, `items[0]` (keys clipped: they may be the client's). */
function fieldName(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p).slice(0, 64)}`)).join("");
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function describe(issue: Issue, value: unknown): string {
  if (value === undefined) return "is required";
  if (issue.code === "invalid_type" && issue.expected && NOUNS[issue.expected]) return `must be ${NOUNS[issue.expected]}`;
  if (issue.code === "invalid_value" && issue.values?.length) return `must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}`;
  if (issue.code === "invalid_union" && issue.errors?.length) {
    // A union of types (a progress token: a string or an integer) names each one.
    const nouns = issue.errors.map((branch) => branch.find((b) => b.path.length === 0 && b.code === "invalid_type" && b.expected && NOUNS[b.expected]));
    if (nouns.every(Boolean)) return `must be ${[...new Set(nouns.map((b) => NOUNS[b!.expected!]))].join(" or ")}`;
  }
  return "is not valid";
}

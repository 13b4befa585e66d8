// What tsc sees of @huggingface/transformers (tsconfig.json "paths"): the package's own typings
// bring sharp's and with them @types/node, which clash with js/mcp/node.d.ts. The runtime import
// stays the package's.
import type { Transformers } from "./core.js";

export declare const env: Transformers["env"];
export declare const pipeline: Transformers["pipeline"];

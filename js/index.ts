// The package entry `neuralcut`: the timeline engine and the agent tools.
export { createEditor, ELEMENT_KINDS, isToolError, NeuralCutEditor } from "./editor.js";
export type { ElementKind, ToolArgsParam, ToolCallResult } from "./editor.js";
export { NeuralCutError } from "./errors.js";
export * from "./generated/tools.js";
export type * from "./types.js";

/** An editor, as `createEditor` returns it. */
export type { NeuralCutEditor as Editor } from "./editor.js";

// Built-in skills: recipes for common edits, written for this tool set (every tool and argument
// they name is a real one; tests/js/agent-skills.test.mjs checks the names against the registry).
// The model lists them with list_skills and loads one with load_skill before the task it covers.
// Each is a TypeScript module holding markdown, so the package needs no loader for .md files.

import { BROLL } from "./b-roll.js";
import { CANVAS_BACKGROUND } from "./canvas-background.js";
import { CAPTIONS } from "./captions.js";
import { CUT_TO_SCENES } from "./cut-to-scenes.js";
import { MASKS } from "./masks.js";
import { REMOVE_SILENCES } from "./remove-silences.js";
import { SHAPES } from "./shapes.js";
import { SPEED } from "./speed.js";
import { TALKING_HEAD } from "./talking-head.js";
import { TEXT_STYLING } from "./text-styling.js";
import { VERTICAL_SHORT } from "./vertical-short.js";

/** A recipe the agent can load: `name` (kebab-case), a one-line `description`, a markdown `body`. */
export interface Skill {
  name: string;
  description: string;
  body: string;
}

/** The skills every agent has, in the order list_skills gives them. */
export const BUILT_IN_SKILLS: readonly Skill[] = Object.freeze([
  CAPTIONS,
  REMOVE_SILENCES,
  CUT_TO_SCENES,
  SPEED,
  VERTICAL_SHORT,
  TALKING_HEAD,
  BROLL,
  MASKS,
  TEXT_STYLING,
  CANVAS_BACKGROUND,
  SHAPES,
]);

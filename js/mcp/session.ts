// A headless editing session, shared by `neuralcut mcp` and the CLI verbs: the editor, the
// files its media came from, and the project file it was opened from and is saved to.
//
// Media paths: the engine keeps only asset metadata, so the session remembers where each
// imported file lives and writes it into the saved project as `path` on the asset (an extra
// field the engine keeps and writes back), relative to the project file. Opening that project
// again (a restarted server, the next CLI call) resolves each `path` against the project file's
// folder, so moving the project together with its media keeps them found.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

import { NeuralCutError } from "../errors.js";
import { createEditor, type NeuralCutEditor } from "../editor.js";
import type { ProjectJson, ToolErrorResult } from "../types.js";
import type { MediaInfo } from "../media/probe.js";
import type { HostTool } from "../host-tools.js";
import { DEMO_MEDIA, DEMO_PROJECT } from "./demo-project.js";
import { writeFileAtomicSync } from "../safe-write.js";

export interface Session {
  editor: NeuralCutEditor;
  /** Absolute path of each asset's file, by asset id (imported or read from the project). */
  paths: Map<string, string>;
  /** Tools the Node side answers (render_preview), beside the engine's. */
  hostTools?: readonly HostTool[];
  /** Where media_import adds the files it probed, when not to `editor` (bridge mode: the page,
   * js/bridge/mcp.ts). Resolves to the new asset ids in order, or media_import's error value. */
  addMedia?(files: ProbedFile[]): Promise<{ ids: string[] } | ToolErrorResult>;
}

/** A file media_import has read: its path and the asset it becomes. */
export interface ProbedFile {
  path: string;
  asset: Omit<MediaInfo, "format">;
}

export interface OpenOptions {
  demo?: boolean;
  /** A saved project file. */
  project?: string;
  /** When the project file does not exist: start an empty project (true) or fail (false). */
  createMissing?: boolean;
}

/** Opens the demo project, a project file, or an empty project. Throws Error with a message. */
export async function openSession(options: OpenOptions): Promise<Session> {
  const paths = new Map<string, string>();
  if (options.demo) {
    // The sample media ship in the package (package.json "files": demo/media/), two folders
    // above this module in dist/mcp/.
    for (const [id, name] of Object.entries(DEMO_MEDIA)) {
      const file = fileURLToPath(new URL(`../../demo/media/${name}`, import.meta.url));
      if (existsSync(file)) paths.set(id, file);
    }
    return { editor: await createEditor({ project: DEMO_PROJECT }), paths };
  }
  if (!options.project) return { editor: await createEditor(), paths };
  const file = resolve(options.project);
  if (!existsSync(file)) {
    if (!options.createMissing) throw new NeuralCutError("PROJECT_UNREADABLE", `project file not found: ${file} (add --save to start a new one there)`);
    return { editor: await createEditor(), paths };
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new NeuralCutError("PROJECT_UNREADABLE", `cannot read the project file ${file}: ${(e as Error).message}`, { cause: e });
  }
  const editor = await createEditor({ project: text });
  for (const asset of (editor.project().assets as { id?: unknown; path?: unknown }[] | undefined) ?? []) {
    if (typeof asset.id === "string" && typeof asset.path === "string" && asset.path !== "") {
      paths.set(asset.id, resolve(dirname(file), asset.path));
    }
  }
  return { editor, paths };
}

/** The project as it is saved to `file`: every known media path relative to the file's folder. */
export function projectForFile(session: Session, file: string): ProjectJson {
  const project = session.editor.project();
  const dir = dirname(resolve(file));
  const assets = project.assets as Record<string, unknown>[] | undefined;
  for (const asset of assets ?? []) {
    const abs = typeof asset.id === "string" ? session.paths.get(asset.id) : undefined;
    if (abs === undefined) continue;
    const rel = relative(dir, abs);
    // Forward slashes, so a project saved on one system opens on another.
    asset.path = isAbsolute(rel) ? rel : rel.split(sep).join("/");
  }
  return project;
}

/** Writes `text` to `path` atomically: a new temporary file beside it, made exclusively under a
 * random name (a link planted there is never followed), then a rename (js/safe-write.ts). */
export function writeAtomic(path: string, text: string | Uint8Array): void {
  writeFileAtomicSync(path, text);
}

/** Saves the session's project to `file` (atomically, media paths relative to it). */
export function saveSession(session: Session, file: string): void {
  writeAtomic(resolve(file), `${JSON.stringify(projectForFile(session, file), null, 2)}\n`);
}

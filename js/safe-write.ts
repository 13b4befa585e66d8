// Files the package writes (a saved project, a rendered frame, an exported video) are written to
// a NEW temporary file beside the target, made exclusively (O_CREAT|O_EXCL, and O_NOFOLLOW where
// the system has it) under a random name, then renamed over the target. A file or a link planted
// at a name the writer would use is never opened, followed or truncated: the create fails instead.
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, rm, type FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";

/** Write only, create, fail if anything (a link included) is at the name, never follow a link. */
const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
/** Names tried before giving up: a clash of 16 random bytes means someone is racing us. */
const TRIES = 4;

/** `<target>.<32 hex digits><suffix>`: in the target's folder, so the rename stays on one disk. */
const tempName = (target: string, suffix: string) => `${target}.${randomBytes(16).toString("hex")}${suffix}`;

const clash = (e: unknown) => (e as { code?: string }).code === "EEXIST";

/** Creates a new temporary file for `target` and opens it for writing. */
export async function openTemp(target: string, suffix = ".tmp", mode = 0o644): Promise<{ path: string; handle: FileHandle }> {
  for (let i = 1; ; i++) {
    const path = tempName(target, suffix);
    try {
      return { path, handle: await open(path, EXCLUSIVE, mode) };
    } catch (e) {
      if (!clash(e) || i === TRIES) throw e;
    }
  }
}

/** Moves a finished temporary file over `target`. */
export const commitTemp = (temp: string, target: string): Promise<void> => rename(temp, target);

/** Deletes a temporary file that will not be committed. */
export const discardTemp = (temp: string): Promise<void> => rm(temp, { force: true });

/** Writes `data` to `target` atomically through a new temporary file. */
export function writeFileAtomicSync(target: string, data: string | Uint8Array, mode = 0o644): void {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let fd = -1;
  let temp = "";
  for (let i = 1; fd < 0; i++) {
    temp = tempName(target, ".tmp");
    try {
      fd = openSync(temp, EXCLUSIVE, mode);
    } catch (e) {
      if (!clash(e) || i === TRIES) throw e;
    }
  }
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(temp, target);
  } catch (e) {
    if (fd >= 0) closeSync(fd);
    rmSync(temp, { force: true });
    throw e;
  }
}

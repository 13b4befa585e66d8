// The relay's one-time file route for media_import in bridge mode (docs/bridge.md, "Importing
// media"). A client names files on this machine; each goes through media_import's own prober
// (js/media/probe.ts: absolute, an existing file, a media format it reads), and the relay lets the
// page fetch exactly those, each under a random one-time path `/media/<grant>/<name>`, then
// forgets them. A grant is
// refused once its file's last byte has been sent, once the page has answered the import, or
// after a short expiry; it answers only the origin of the page it was made for, addressed by a
// loopback Host.

import { type ErrorCode, NeuralCutError } from "../errors.js";
import { byteRange, sendFile } from "../media/send-file.js";
import { MediaProbeError, probeMedia, type MediaInfo } from "../media/probe.js";

// Built-in modules go through a variable: the package compiles without Node's typings.
const load = (name: string): Promise<any> => import(name);

/** The path prefix of granted files. */
export const MEDIA_PATH = "/media/";
/** How long a grant lives at most (the page fetches at once; a large file over loopback takes seconds). */
export const GRANT_MS = 60_000;

interface Grant {
  path: string;
  name: string;
  size: number;
  origin: string;
  timer: ReturnType<typeof setTimeout>;
}

/** A file the client named, probed: what it is, and where the page will fetch it. */
export interface GrantedFile {
  path: string;
  url: string;
  /** What the prober read from the file's headers (the asset the page gets). */
  info: MediaInfo;
}

/** A path the relay will not grant; `index` is its place in the request. */
export class GrantError extends NeuralCutError {
  constructor(
    message: string,
    code: ErrorCode,
    readonly index: number,
  ) {
    super(code, message);
    this.name = "GrantError";
  }
}

export interface FileGrants {
  /** Probes every path as media_import does and grants each to `origin`; all or none. */
  grant(paths: string[], origin: string, base: string, ttlMs?: number): Promise<{ files: GrantedFile[]; revoke(): void }>;
  /** Answers a request under MEDIA_PATH; false when the path is not this route's. */
  serve(req: any, res: any, hostAllowed: (host: string | undefined) => boolean): boolean;
  clear(): void;
}

export async function createFileGrants(): Promise<FileGrants> {
  const fs = await load("node:fs");
  const crypto = await load("node:crypto");
  const grants = new Map<string, Grant>();
  const drop = (key: string) => {
    const g = grants.get(key);
    if (g) clearTimeout(g.timer);
    grants.delete(key);
  };

  async function grant(paths: string[], origin: string, base: string, ttlMs = GRANT_MS) {
    const checked: { path: string; size: number; info: MediaInfo }[] = [];
    for (const [index, path] of paths.entries()) {
      // media_import's checks and messages, so a generic route reaches no file it would refuse.
      let info: MediaInfo;
      let size: number;
      try {
        info = await probeMedia(path);
        size = (await fs.promises.stat(path)).size;
      } catch (e) {
        throw new GrantError(e instanceof MediaProbeError ? e.message : `Cannot open ${path}: ${(e as Error).message}`, "MEDIA_UNREADABLE", index);
      }
      checked.push({ path, size, info });
    }
    const keys: string[] = [];
    const files = checked.map(({ path, size, info }) => {
      const key = crypto.randomBytes(32).toString("base64url");
      const name = info.name;
      grants.set(key, { path, name, size, origin, timer: setTimeout(() => drop(key), ttlMs) });
      keys.push(key);
      return { path, info, url: `${base}${MEDIA_PATH}${key}/${encodeURIComponent(name)}` };
    });
    return { files, revoke: () => keys.forEach(drop) };
  }

  function serve(req: any, res: any, hostAllowed: (host: string | undefined) => boolean): boolean {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith(MEDIA_PATH)) return false;
    const refuse = (status: number, why: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(`${why}\n`);
    };
    // The same checks as the page's WebSocket: a loopback Host (no DNS rebinding), then the origin.
    if (!hostAllowed(req.headers.host)) return (refuse(403, "the Host header must name 127.0.0.1, localhost or [::1] and this port"), true);
    // Exactly /media/<grant>/<the file's own name>: nothing else resolves, whatever the path says.
    const parts = url.pathname.slice(MEDIA_PATH.length).split("/");
    const key = parts[0];
    const g = parts.length === 2 ? grants.get(key) : undefined;
    let name: string | undefined;
    try {
      name = parts.length === 2 ? decodeURIComponent(parts[1]) : undefined;
    } catch {
      name = undefined;
    }
    if (!g || name !== g.name) return (refuse(404, "no such file (a grant serves one named file, once)"), true);
    if (req.headers.origin !== g.origin) return (refuse(403, `origin ${req.headers.origin ?? "(none)"} may not read this file`), true);
    const cors = { "access-control-allow-origin": g.origin, vary: "Origin" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-methods": "GET, HEAD", "access-control-allow-headers": "Range", "access-control-max-age": "60" });
      res.end();
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { ...cors, allow: "GET, HEAD, OPTIONS" });
      res.end();
      return true;
    }
    // Sending the last byte uses the grant up: a second read of the file is refused, even one
    // that comes in while this one is still being sent.
    const range = byteRange(req.headers.range, g.size);
    if (req.method === "GET" && range !== "unsatisfiable" && (range === null || range.end === g.size - 1)) drop(key);
    sendFile(req, res, g.path, { ...cors, "access-control-expose-headers": "Content-Length, Content-Range, Accept-Ranges", "cache-control": "no-store" }).catch(
      () => res.destroy(),
    );
    return true;
  }

  return {
    grant,
    serve,
    clear: () => [...grants.keys()].forEach(drop),
  };
}

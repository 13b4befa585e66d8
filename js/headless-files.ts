// The headless page's file server on 127.0.0.1 (render_preview, render-frame, export): a gate,
// not a folder. Every URL starts with a secret of 32 random bytes made for this server; the Host
// must be 127.0.0.1, localhost or [::1] with this port (a rebinding name is refused); an Origin,
// when a request carries one, must be this server's own; media files are served only from the
// grant table (exact paths), each checked first by probeMedia, the check media_import makes, and
// served only while the file is the one checked (device, inode, size, mtime). docs/mcp.md,
// "Threats: the headless page's file server and written files".
import { createServer, type Server } from "node:http";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

import { MediaProbeError, probeMedia } from "./media/probe.js";
import { sendFile, type FileRequest, type FileResponse } from "./media/send-file.js";

/** A request as a route sees it: node:http's, readable as a stream of chunks. */
export type HostRequest = FileRequest & AsyncIterable<Uint8Array>;

/** What `grant` gives: URLs by asset id, the refused assets with why, and a way to revoke. */
export interface MediaGrant {
  urls: Record<string, string>;
  refused: Map<string, string>;
  release(): void;
}

export interface HeadlessFileServer {
  /** `http://127.0.0.1:<port>`: the page's origin. */
  origin: string;
  /** The origin and the secret: every URL the page uses starts with it (ends with "/"). */
  base: string;
  port: number;
  /**
   * Grants the local files of `media` (asset id -> path or file:// URL; other URLs are skipped)
   * after the media check. `stable` keeps one URL per asset and path across calls (the compositor
   * caches what it loaded by URL) and revokes the stable grants of assets no longer listed;
   * otherwise the grants are fresh and `release` drops them.
   */
  grant(media: ReadonlyMap<string, string>, stable: boolean): Promise<MediaGrant>;
  close(): Promise<void>;
}

interface Grant {
  path: string;
  /** dev:ino:size:mtime of the file the check read. */
  identity: string;
}

const text = (s: string) => new TextEncoder().encode(`${s}\n`);
const identityOf = (s: { dev: number; ino: number; size: number; mtimeMs: number }) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
/** 24 random bytes, URL-safe: a grant's name (never an asset id). */
const token = () => randomBytes(24).toString("base64url");

/** The media check: a regular file media_import would accept. Returns its identity or why not. */
async function checkMedia(path: string): Promise<{ identity: string } | { error: string }> {
  const before = await stat(path).catch((e: Error) => e);
  if (before instanceof Error)
    return { error: (before as { code?: string }).code === "ENOENT" ? `File not found: ${path}` : `Cannot open ${path}: ${before.message}` };
  // Before opening: a FIFO or a device would block or never end.
  if (!before.isFile()) return { error: `Not a file: ${path}` };
  try {
    await probeMedia(path);
  } catch (e) {
    if (e instanceof MediaProbeError) return { error: e.message };
    throw e;
  }
  const after = await stat(path).catch(() => undefined);
  if (!after || identityOf(after) !== identityOf(before)) return { error: `${path} changed while it was checked` };
  return { identity: identityOf(before) };
}

/**
 * Starts the gate on 127.0.0.1: `<base>` answers `html`, `<base>mediabunny.js` the bundle,
 * `<base>soundtouch.js` soundtouchjs (the export's pitch-keeping stretch) when given,
 * `<base>dist/…` the package's files in `dist`, `<base>media/<grant>` the granted files, and
 * `route` whatever else it knows (true when it answered).
 */
export async function startHeadlessFileServer(options: {
  html: (base: string) => string;
  dist: string;
  mediabunny: string;
  soundtouch?: string;
  route?: (req: HostRequest, res: FileResponse, url: URL, path: string) => Promise<boolean>;
}): Promise<HeadlessFileServer> {
  const secret = randomBytes(32).toString("base64url");
  const grants = new Map<string, Grant>(); // grant name -> file
  const stableNames = new Map<string, string>(); // asset id \0 path -> grant name
  const checked = new Map<string, string>(); // path -> identity that passed the check
  let hosts = new Set<string>();
  let own = "";

  const refuse = (res: FileResponse, status: number, why: string) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
    res.end(text(why));
  };
  /** Whether `got` (a path segment) is the secret, in constant time. */
  const isSecret = (got: string) => {
    const a = new TextEncoder().encode(got);
    const b = new TextEncoder().encode(secret);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const server: Server = createServer(async (req, res) => {
    try {
      // A rebinding name (evil.example:PORT) or another port: not this server's page.
      if (!hosts.has((req.headers.host ?? "").toLowerCase())) return refuse(res, 403, "the Host header must name 127.0.0.1, localhost or [::1] and this port");
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== own) return refuse(res, 403, `origin ${origin} may not use this server`);
      const site = req.headers["sec-fetch-site"];
      if (site !== undefined && site !== "same-origin" && site !== "none") return refuse(res, 403, `a ${site} request may not use this server`);
      const url = new URL(req.url ?? "/", own);
      const [, first, ...rest] = url.pathname.split("/");
      if (first === undefined || !isSecret(first)) return refuse(res, 404, "not found");
      let path: string;
      try {
        path = `/${decodeURIComponent(rest.join("/"))}`;
      } catch {
        return refuse(res, 404, "not found");
      }
      if (options.route && (await options.route(req as unknown as HostRequest, res, url, path))) return;
      if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "GET or HEAD");
      if (path === "/")
        return void res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" }).end(new TextEncoder().encode(options.html(base)));
      if (path === "/mediabunny.js") return void (await sendFile(req, res, options.mediabunny));
      if (path === "/soundtouch.js" && options.soundtouch) return void (await sendFile(req, res, options.soundtouch));
      if (path.startsWith("/dist/")) {
        const f = normalize(join(options.dist, path.slice(6)));
        // Inside dist itself: `../dist-old/x` normalises to a sibling that shares the prefix.
        if (!f.startsWith(join(options.dist, sep))) return refuse(res, 404, "not found");
        return void (await sendFile(req, res, f));
      }
      const g = path.startsWith("/media/") ? grants.get(path.slice(7)) : undefined;
      if (!g) return refuse(res, 404, "not found");
      // The file must still be the one checked: a swap for a link to another file is refused.
      const now = await stat(g.path).catch(() => undefined);
      if (!now || identityOf(now) !== g.identity) return refuse(res, 404, "the file changed since it was granted");
      await sendFile(req, res, g.path, { "cache-control": "no-store" });
    } catch (e) {
      if (!res.destroyed) refuse(res, 500, (e instanceof Error ? e.message : String(e)).split("\n")[0]);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  own = `http://127.0.0.1:${port}`;
  const base = `${own}/${secret}/`;

  async function grant(media: ReadonlyMap<string, string>, stable: boolean): Promise<MediaGrant> {
    const urls: Record<string, string> = {};
    const refused = new Map<string, string>();
    const fresh: string[] = [];
    const keep = new Set<string>();
    for (const [id, where] of media) {
      const path = where.startsWith("file:") ? fileURLToPath(where) : where;
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) continue; // only local files are served
      let identity = checked.get(path);
      const now = identity === undefined ? undefined : await stat(path).catch(() => undefined);
      if (identity === undefined || !now || identityOf(now) !== identity) {
        const c = await checkMedia(path);
        if ("error" in c) {
          checked.delete(path);
          refused.set(id, c.error);
          continue;
        }
        identity = c.identity;
        checked.set(path, identity);
      }
      const ext = /^\.[a-z0-9]{1,8}$/i.test(extname(path)) ? extname(path).toLowerCase() : "";
      const key = `${id}\0${path}`;
      let name = stable ? stableNames.get(key) : undefined;
      if (!name) {
        name = `${token()}${ext}`;
        if (stable) stableNames.set(key, name);
        else fresh.push(name);
      }
      if (stable) keep.add(key);
      grants.set(name, { path, identity });
      urls[id] = `${base}media/${name}`;
    }
    if (stable) {
      for (const [key, name] of stableNames) {
        if (keep.has(key)) continue;
        stableNames.delete(key);
        grants.delete(name);
      }
    }
    return { urls, refused, release: () => fresh.forEach((n) => grants.delete(n)) };
  }

  return {
    origin: own,
    base,
    port,
    grant,
    async close() {
      grants.clear();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections?.();
      });
    },
  };
}

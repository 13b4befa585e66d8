// Sends a file over node:http, whole or one byte range, for the 127.0.0.1 servers that hand files
// to a page: the headless host of render_preview and export (js/render-headless.ts) and the
// relay's one-time grants for media_import in bridge mode (js/bridge/file-grants.ts).
import { open } from "node:fs/promises";
import { extname } from "node:path";

/** Content types by extension: the package's own files and every format media_import reads. */
export const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
  ".webm": "video/webm",
  ".mp4": "video/mp4",
  ".m4v": "video/mp4",
  ".mov": "video/quicktime",
  ".mkv": "video/x-matroska",
  ".ogv": "video/ogg",
  ".m4a": "audio/mp4",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".opus": "audio/ogg",
  ".wav": "audio/wav",
  ".mp3": "audio/mpeg",
  ".aac": "audio/aac",
  ".flac": "audio/flac",
};

/** What sendFile needs of a request and a response (node:http's). */
export interface FileRequest {
  method?: string;
  headers: Record<string, string | string[] | undefined>;
}
export interface FileResponse {
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  write(chunk: Uint8Array): boolean;
  once(event: string, listener: () => void): unknown;
  end(body?: Uint8Array): void;
  readonly destroyed?: boolean;
}

/** The bytes a Range header asks of a file of `size` bytes: one range, as media elements, fetch
 * and mediabunny send; `null` for the whole file (no header, or one this does not read);
 * "unsatisfiable" when the range starts past the end. */
export function byteRange(header: string | string[] | undefined, size: number): { start: number; end: number } | null | "unsatisfiable" {
  const m = typeof header === "string" ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") return size === 0 ? "unsatisfiable" : { start: Math.max(0, size - Number(m[2])), end: size - 1 };
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || start > end ? "unsatisfiable" : { start, end };
}

/** A megabyte at a time: a media file is never held whole in memory. */
const CHUNK = 1 << 20;

/** Sends `file`, or the one range asked for (206), with `headers` added; HEAD sends the headers
 * only. An unsatisfiable range is 416. */
export async function sendFile(req: FileRequest, res: FileResponse, file: string, headers: Record<string, string> = {}): Promise<void> {
  const fh = await open(file, "r");
  try {
    const size = (await fh.stat()).size;
    const common = { ...headers, "content-type": CONTENT_TYPES[extname(file).toLowerCase()] ?? "application/octet-stream", "accept-ranges": "bytes" };
    const range = byteRange(req.headers.range, size);
    if (range === "unsatisfiable") {
      res.writeHead(416, { ...common, "content-range": `bytes */${size}` });
      return res.end();
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const length = Math.max(0, end - start + 1);
    res.writeHead(range ? 206 : 200, { ...common, "content-length": length, ...(range ? { "content-range": `bytes ${start}-${end}/${size}` } : {}) });
    if (req.method === "HEAD") return res.end();
    let sent = 0;
    while (sent < length && !res.destroyed) {
      const chunk = new Uint8Array(Math.min(CHUNK, length - sent));
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, start + sent);
      if (bytesRead === 0) break;
      sent += bytesRead;
      // Wait for the socket to drain rather than queue the whole file.
      if (!res.write(chunk.subarray(0, bytesRead))) await new Promise<void>((done) => (res.once("drain", done), res.once("close", done)));
    }
    res.end();
  } finally {
    await fh.close();
  }
}

// Opaque file handles. A handle is the upstream file's name, URI, MIME type, expiry and owning
// client, sealed with AES-GCM under a key only the proxy holds. The proxy needs no store to
// remember what it uploaded (so it runs unchanged on serverless and edge runtimes), a client
// cannot read or forge a handle, and a handle presented by another client is refused.

const te = new TextEncoder();
const td = new TextDecoder();

/** What a handle carries. */
export interface FileRecord {
  /** Upstream resource name, `files/abc123`. */
  name: string;
  /** Upstream file URI, used in fileData parts. */
  uri: string;
  mimeType: string;
  /** Milliseconds since the epoch; 0 when unknown. */
  expiresAt: number;
}

interface Sealed extends FileRecord {
  /** Tag of the owning client. */
  client: string;
}

export const HANDLE_PREFIX = "ncf_";

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

export class HandleSealer {
  private readonly key: Promise<CryptoKey>;

  /** `secret`: any string or bytes; without one, a random key (handles die with the process). */
  constructor(secret?: string | Uint8Array) {
    const material = secret === undefined ? crypto.getRandomValues(new Uint8Array(32)) : typeof secret === "string" ? te.encode(secret) : new Uint8Array(secret);
    this.key = crypto.subtle
      .digest("SHA-256", material)
      .then((raw) => crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]));
  }

  /** A short, stable tag for a client id; only the tag goes into handles. */
  async clientTag(clientId: string): Promise<string> {
    const digest = await crypto.subtle.digest("SHA-256", te.encode("neuralcut-client:" + clientId));
    return toBase64Url(new Uint8Array(digest).slice(0, 16));
  }

  async seal(record: FileRecord, clientTag: string): Promise<string> {
    const body: Sealed = { ...record, client: clientTag };
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await this.key, te.encode(JSON.stringify(body))));
    const out = new Uint8Array(iv.length + ct.length);
    out.set(iv);
    out.set(ct, iv.length);
    return HANDLE_PREFIX + toBase64Url(out);
  }

  /** The record behind `handle` when it is genuine and belongs to `clientTag`; otherwise null. */
  async open(handle: unknown, clientTag: string): Promise<FileRecord | null> {
    if (typeof handle !== "string" || !handle.startsWith(HANDLE_PREFIX) || handle.length > 2048) return null;
    const bytes = fromBase64Url(handle.slice(HANDLE_PREFIX.length));
    if (!bytes || bytes.length < 12 + 16 + 2) return null;
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await this.key, bytes.slice(12));
    } catch {
      return null;
    }
    let body: Sealed;
    try {
      body = JSON.parse(td.decode(plain));
    } catch {
      return null;
    }
    if (!body || body.client !== clientTag || typeof body.name !== "string" || typeof body.uri !== "string") return null;
    return { name: body.name, uri: body.uri, mimeType: String(body.mimeType ?? ""), expiresAt: Number(body.expiresAt) || 0 };
  }
}

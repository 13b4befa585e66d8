// Opaque file handles. A handle is the upstream file's name, URI, MIME type, size, expiry and
// owning user, sealed with AES-GCM under a key only the proxy holds. The proxy needs no store to
// remember what it uploaded (so it runs unchanged on serverless and edge runtimes), a client
// cannot read or forge a handle, and a handle presented by another user is refused. The keys are
// derived with HKDF from a secret of at least 32 bytes: a shorter one could be guessed offline from
// a handle.

import { NeuralCutError } from "../errors.js";

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
  /** Bytes uploaded (what the file counts against the storage budgets). */
  sizeBytes: number;
}

interface Sealed extends FileRecord {
  /** Tag of the owning user. */
  owner: string;
}

/** Shortest handle secret accepted, in bytes. */
export const MIN_SECRET_BYTES = 32;

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
  private readonly sealKey: Promise<CryptoKey>;
  private readonly ownerKey: Promise<CryptoKey>;

  /**
   * `secret`: at least 32 bytes (a string counts its UTF-8 bytes). Without one, a random key
   * (handles die with the process) and `warn` says so. A shorter one throws a TypeError.
   */
  constructor(secret: string | Uint8Array | undefined, warn: (line: string) => void) {
    let material: Uint8Array;
    if (secret === undefined || secret === "") {
      material = crypto.getRandomValues(new Uint8Array(32));
      warn("no handleSecret set: file handles are sealed with a random key and stop working when this process restarts");
    } else {
      material = typeof secret === "string" ? te.encode(secret) : new Uint8Array(secret);
      if (material.byteLength < MIN_SECRET_BYTES)
        throw new NeuralCutError("INVALID_OPTIONS", `createGeminiProxy: handleSecret must hold at least ${MIN_SECRET_BYTES} bytes (e.g. openssl rand -hex 32)`);
    }
    const ikm = crypto.subtle.importKey("raw", material as Uint8Array<ArrayBuffer>, "HKDF", false, ["deriveKey"]);
    const derive = (info: string, alg: AesKeyGenParams | HmacImportParams, usages: KeyUsage[]) =>
      ikm.then((k) =>
        crypto.subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: te.encode("neuralcut-proxy"), info: te.encode(info) }, k, alg, false, usages),
      );
    this.sealKey = derive("neuralcut handles v2", { name: "AES-GCM", length: 256 }, ["encrypt", "decrypt"]);
    this.ownerKey = derive("neuralcut owner v2", { name: "HMAC", hash: "SHA-256", length: 256 }, ["sign"]);
  }

  /** A short, stable tag for a user id; only the tag goes into handles. */
  async ownerTag(user: string): Promise<string> {
    const mac = await crypto.subtle.sign("HMAC", await this.ownerKey, te.encode(user));
    return toBase64Url(new Uint8Array(mac).slice(0, 16));
  }

  async seal(record: FileRecord, owner: string): Promise<string> {
    const body: Sealed = { ...record, owner };
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await this.sealKey, te.encode(JSON.stringify(body))));
    const out = new Uint8Array(iv.length + ct.length);
    out.set(iv);
    out.set(ct, iv.length);
    return HANDLE_PREFIX + toBase64Url(out);
  }

  /** The record behind `handle` when it is genuine and belongs to `owner`; otherwise null. */
  async open(handle: unknown, owner: string): Promise<FileRecord | null> {
    if (typeof handle !== "string" || !handle.startsWith(HANDLE_PREFIX) || handle.length > 2048) return null;
    const bytes = fromBase64Url(handle.slice(HANDLE_PREFIX.length));
    if (!bytes || bytes.length < 12 + 16 + 2) return null;
    let plain: ArrayBuffer;
    try {
      plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, await this.sealKey, bytes.slice(12));
    } catch {
      return null;
    }
    let body: Sealed;
    try {
      body = JSON.parse(td.decode(plain));
    } catch {
      return null;
    }
    if (!body || body.owner !== owner || typeof body.name !== "string" || typeof body.uri !== "string") return null;
    return {
      name: body.name,
      uri: body.uri,
      mimeType: String(body.mimeType ?? ""),
      expiresAt: Number(body.expiresAt) || 0,
      sizeBytes: Number(body.sizeBytes) || 0,
    };
  }
}

// Who is asking: the host's `authorize`, a ready-made one for a shared token, and the client
// address behind a known number of reverse proxies.

import { NeuralCutError } from "../errors.js";
import type { Authorize, ProxyRequestInfo } from "./config.js";

const te = new TextEncoder();

export interface TokenAuthorizerOptions {
  /** Also accept the token from this cookie (a page served with it as an HttpOnly cookie). */
  cookie?: string;
  /** The user id every holder of the token is. `"token"`. */
  user?: string;
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", te.encode(text)));
}

/** Compares without an early exit, so the time taken says nothing about the token. */
async function same(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([digest(a), digest(b)]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * An `authorize` that admits requests carrying `token` as `Authorization: Bearer <token>` (or in
 * the named cookie). For one operator or a local tool; an app with users passes its own session
 * check instead. The token must hold at least 32 characters.
 */
export function createTokenAuthorizer(token: string, options: TokenAuthorizerOptions = {}): Authorize {
  if (typeof token !== "string" || token.length < 32)
    throw new NeuralCutError("INVALID_OPTIONS", "createTokenAuthorizer: the token must hold at least 32 characters");
  const user = options.user ?? "token";
  return async (request) => {
    const auth = request.headers.get("authorization");
    const bearer = auth && /^Bearer\s+/i.test(auth) ? auth.replace(/^Bearer\s+/i, "").trim() : undefined;
    const given = bearer ?? (options.cookie ? cookieValue(request.headers.get("cookie"), options.cookie) : undefined);
    return given !== undefined && (await same(given, token)) ? user : null;
  };
}

/**
 * The client's address: the connecting peer's with no trusted hops, else the entry `hops` from the
 * right of `X-Forwarded-For` plus the peer (each trusted proxy appends the address it saw; what
 * lies further left was written by the client and is not believed).
 */
export function clientAddress(request: Request, info: ProxyRequestInfo, hops: number): string | undefined {
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (info.clientAddress) chain.push(info.clientAddress);
  if (hops === 0) return info.clientAddress;
  // Fewer entries than trusted hops: the request skipped a proxy; take the farthest one seen.
  const at = Math.max(0, chain.length - 1 - (info.clientAddress ? hops : hops - 1));
  const addr = chain[at];
  return addr && addr.length <= 64 ? addr : undefined;
}

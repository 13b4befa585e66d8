// The NeuralCut Gemini proxy: a fetch-style handler that holds the Gemini API key server-side and
// offers an authorized user five fixed endpoints (upload, status, delete, generate, limits), each
// within that user's budgets. Plain `fetch` underneath, no SDK.
//
//   config.ts    options, defaults, the check at start
//   auth.ts      token authorizer, client address behind trusted proxies
//   budgets.ts   per-user and global budgets over a store (store.ts: memory, redis.ts: Redis)
//   handles.ts   sealed file handles
//   validate.ts  the generate body's shape and its cost clamps
//   upstream.ts  every call to Gemini, and what a client may see of its failures
//   uploads.ts   the streamed resumable upload
//   routes.ts    origin, authorization, budgets, endpoints
//
// See docs/proxy.md for deployment, the threat model and what is refused and why.

import { Budgets } from "./budgets.js";
import { type GeminiProxyOptions, resolveConfig } from "./config.js";
import { HandleSealer } from "./handles.js";
import { createHandler, type GeminiProxyHandler } from "./routes.js";
import { MemoryStore } from "./store.js";
import { UpstreamClient } from "./upstream.js";

export { createTokenAuthorizer, type TokenAuthorizerOptions } from "./auth.js";
export {
  type Authorize,
  DEFAULT_BUDGETS,
  DEFAULT_LIMITS,
  DEFAULT_MODELS,
  DEFAULT_UPSTREAM,
  type GeminiProxyOptions,
  type MediaResolution,
  type ProxyBudgets,
  type ProxyLimits,
  type ProxyRequestInfo,
} from "./config.js";
export { HANDLE_PREFIX, MIN_SECRET_BYTES } from "./handles.js";
export { createRedisStore, type RedisCommander, type RedisStoreOptions } from "./redis.js";
export { CLIENT_HEADER, FILE_NAME_HEADER, type GeminiProxyHandler } from "./routes.js";
export { type BudgetStore, type CounterState, MemoryStore, type MemoryStoreOptions } from "./store.js";

/**
 * Creates the proxy. Throws a TypeError for an unusable configuration (no key, no `authorize`
 * without `public: true`, a `*` origin, a short handle secret, an unknown limit): a misconfigured
 * proxy fails at start, not per request.
 */
export function createGeminiProxy(options: GeminiProxyOptions): GeminiProxyHandler {
  const cfg = resolveConfig(options);
  const sealer = new HandleSealer(options.handleSecret, cfg.warn);
  const budgets = new Budgets(options.store ?? new MemoryStore(), cfg.budgets, cfg.warn);
  return createHandler({ cfg, sealer, budgets, upstream: new UpstreamClient(cfg) });
}

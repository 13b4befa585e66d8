// Budget counters in Redis, so that every proxy instance (serverless functions, several Node
// processes) enforces one budget. The host passes its own connected Redis client; the package
// depends on none. One Lua script makes each add atomic on the server.

import { NeuralCutError } from "../errors.js";
import { StoreError } from "./errors.js";
import type { BudgetStore, CounterState } from "./store.js";

/**
 * The one call the store needs: a raw command. node-redis clients have it as is
 * (`client.sendCommand([...])`); for ioredis pass `{ sendCommand: (a) => redis.call(a[0], ...a.slice(1)) }`.
 */
export interface RedisCommander {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prefix of every key this store writes. `neuralcut:budget:`. */
  prefix?: string;
}

// KEYS[1] counter; ARGV amount, ttl ms, limit (-1: none), extend (1/0).
// Returns { ok, value, pttl } with pttl the counter's remaining life (-2: it does not exist).
// A counter brought to 0 is deleted: refunded and refused requests leave no key behind.
const SCRIPT = `
local amount = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local extend = ARGV[4] == '1'
local value = tonumber(redis.call('GET', KEYS[1]) or '0')
local pttl = redis.call('PTTL', KEYS[1])
if amount > 0 and limit >= 0 and value + amount > limit then return {0, value, pttl} end
if pttl == -2 and amount <= 0 then return {1, 0, -2} end
local nv = value + amount
if nv < 0 then nv = 0 end
if nv == 0 then
  redis.call('DEL', KEYS[1])
  return {1, 0, pttl}
end
if pttl < 0 or (extend and amount >= 0) then
  redis.call('SET', KEYS[1], nv, 'PX', ttl)
  pttl = ttl
else
  redis.call('SET', KEYS[1], nv, 'KEEPTTL')
end
return {1, nv, pttl}
`;

/**
 * A BudgetStore over a connected Redis client (Redis 6 or later). The client should fail a
 * command at once while disconnected (node-redis: `disableOfflineQueue: true`) so that an outage
 * refuses requests instead of holding them.
 */
export function createRedisStore(client: RedisCommander, options: RedisStoreOptions = {}): BudgetStore {
  if (!client || typeof client.sendCommand !== "function")
    throw new NeuralCutError("INVALID_OPTIONS", "createRedisStore: pass a connected Redis client with sendCommand(args)");
  const prefix = options.prefix ?? "neuralcut:budget:";
  return {
    async add(key: string, amount: number, ttlMs: number, limit?: number, extend = false): Promise<CounterState> {
      const args = [
        "EVAL",
        SCRIPT,
        "1",
        prefix + key,
        String(Math.trunc(amount)),
        String(Math.max(1, Math.ceil(ttlMs))),
        String(limit === undefined ? -1 : Math.floor(limit)),
        extend ? "1" : "0",
      ];
      const reply = (await client.sendCommand(args)) as unknown[];
      if (!Array.isArray(reply) || reply.length !== 3) throw new StoreError("STORE_UNAVAILABLE", "the Redis budget script answered something unexpected");
      const [ok, value, pttl] = reply.map(Number);
      return { ok: ok === 1, value, resetAt: Date.now() + (pttl > 0 ? pttl : ttlMs) };
    },
  };
}

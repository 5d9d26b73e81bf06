/**
 * The polling lease port: each market is polled by exactly one ingest process at a time. A lease
 * is a key with an expiry: the holder renews it well before it expires; when the holder dies the
 * key expires and a standby acquires it. Every acquisition draws a fencing token that grows with
 * each new holder (`<key>:fence`, INCR), so a store can refuse the writes of a holder that was
 * paused past its expiry. Implementations: Redis (acquire, renew and release are Lua scripts
 * that act only while the key names this owner or is free) and in-memory (always held, token 1:
 * the embedded default has one ingest process).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { luaScript, runScript, whenReady } from '../events/redis-support.ts';

export interface Lease {
  readonly key: string;
  /**
   * The fencing token of this owner's holding when it holds the lease afterwards (newly: a
   * token above every earlier holder's; already: the same token), else null.
   */
  acquire(): Promise<number | null>;
  /** Extends the expiry; false when the lease is no longer this owner's. */
  renew(): Promise<boolean>;
  /** Gives the lease up if this owner still holds it. */
  release(): Promise<void>;
}

export interface RedisLeaseOptions {
  redis: Redis;
  key: string;
  ttlMs: number;
  /** Unique per process: see leaseOwner(). */
  owner: string;
}

// KEYS: lease, fence counter. ARGV: owner, ttl ms. Returns the holding's token, or 0.
const ACQUIRE_SCRIPT = luaScript(`
local holder = redis.call('GET', KEYS[1])
if holder == false then
  local token = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return token
end
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return tonumber(redis.call('GET', KEYS[2]) or '0')
end
return 0
`);

const RENEW_SCRIPT = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

const RELEASE_SCRIPT = luaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

/**
 * Options of the lease connection: it waits up to a renewal interval (ttl/3, at least 1 s) for
 * an answer, so a slow Redis delays a renewal instead of failing it (the keeper trusts a lease
 * only until its deadline anyway).
 */
export function leaseConnectionOptions(leaseMs: number) {
  return {
    connectionName: 'pricing-leases',
    commandTimeout: Math.max(1_000, Math.floor(leaseMs / 3)),
  };
}

/** `<host>:<pid>:<random>`: unique per process start, readable in `redis-cli GET`. */
export function leaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function createRedisLease(options: RedisLeaseOptions): Lease {
  const { redis, key, ttlMs, owner } = options;
  const renew = async () => {
    await whenReady(redis);
    return (await runScript(redis, RENEW_SCRIPT, [key], [owner, ttlMs])) === 1;
  };
  const fenceKey = `${key}:fence`;
  return {
    key,
    async acquire() {
      await whenReady(redis);
      const token = Number(await runScript(redis, ACQUIRE_SCRIPT, [key, fenceKey], [owner, ttlMs]));
      return token > 0 ? token : null;
    },
    renew,
    async release() {
      await whenReady(redis);
      await runScript(redis, RELEASE_SCRIPT, [key], [owner]);
    },
  };
}

export function createMemoryLease(key: string): Lease {
  return {
    key,
    acquire: async () => 1,
    renew: async () => true,
    release: async () => {},
  };
}

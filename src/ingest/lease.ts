/**
 * The polling lease port: each market is polled by exactly one ingest process at a time. A lease
 * is a key with an expiry: the holder renews it well before it expires; when the holder dies the
 * key expires and a standby acquires it. Implementations: Redis (SET NX PX; renew and release
 * are Lua scripts that act only while the key still names this owner) and in-memory (always
 * held: the embedded default has one ingest process).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { luaScript, runScript, whenReady } from '../events/redis-support.ts';

export interface Lease {
  readonly key: string;
  /** True when this owner holds the lease afterwards (newly or already). */
  acquire(): Promise<boolean>;
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
  return {
    key,
    async acquire() {
      await whenReady(redis);
      const taken = await redis.set(key, owner, 'PX', ttlMs, 'NX');
      return taken === 'OK' || renew();
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
    acquire: async () => true,
    renew: async () => true,
    release: async () => {},
  };
}

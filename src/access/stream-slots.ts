/**
 * Open price streams per account (the `concurrentStreams` limit). Each open stream holds a
 * slot until it closes. In memory (the embedded default) the count is this process's; on Redis
 * it is the deployment's: one sorted set per account (`<prefix>streams:<account>`), a slot per
 * open stream scored by when it lapses. A Lua script drops lapsed slots and takes one only below
 * the limit; each process renews its slots every `renewMs`, so the slots of a process that died
 * lapse after `leaseMs`. While Redis fails, slots are counted in this process (at most
 * (API processes) × the limit, never unlimited) and the outage is logged once.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Clock } from '../domain/clock.ts';
import { luaScript, runScript } from '../events/redis-support.ts';

export interface StreamSlots {
  /** A slot id, or null when the account holds `limit` open streams already. */
  take(accountId: string, limit: number): Promise<string | null>;
  release(accountId: string, slot: string): void;
  /** Open streams the account holds (as this store counts them). */
  held(accountId: string): Promise<number>;
  close(): void;
}

export function createMemoryStreamSlots(): StreamSlots {
  const slots = new Map<string, Set<string>>();
  return {
    async take(accountId, limit) {
      let held = slots.get(accountId);
      if ((held?.size ?? 0) >= limit) return null;
      if (!held) slots.set(accountId, (held = new Set()));
      const slot = randomBytes(8).toString('hex');
      held.add(slot);
      return slot;
    },
    release(accountId, slot) {
      const held = slots.get(accountId);
      held?.delete(slot);
      if (held?.size === 0) slots.delete(accountId);
    },
    async held(accountId) {
      return slots.get(accountId)?.size ?? 0;
    },
    close() {
      slots.clear();
    },
  };
}

/** KEYS: the account's set. ARGV: now, lapses at, limit, slot, key ttl ms. */
const TAKE = luaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);

export interface RedisStreamSlotsOptions {
  redis: Redis;
  /** Key prefix; the sets are `<prefix>streams:<account>`. */
  prefix: string;
  clock: Clock;
  logger: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
  leaseMs?: number;
  renewMs?: number;
}

export const STREAM_SLOT_LEASE_MS = 30_000;

export function createRedisStreamSlots(options: RedisStreamSlotsOptions): StreamSlots {
  const { redis, clock, logger } = options;
  const leaseMs = options.leaseMs ?? STREAM_SLOT_LEASE_MS;
  const local = createMemoryStreamSlots();
  const mine = new Map<string, Set<string>>();
  const localSlots = new Set<string>();
  let failing = false;
  const keyOf = (accountId: string) => `${options.prefix}streams:${accountId}`;

  const failed = (error: unknown) => {
    if (failing) return;
    failing = true;
    logger.error({ err: error }, 'stream slots store unreachable: counting open streams locally');
  };
  const answered = () => {
    if (!failing) return;
    failing = false;
    logger.info({}, 'stream slots store reachable again');
  };

  const renew = async () => {
    const lapsesAt = clock.now() + leaseMs;
    const pipeline = redis.pipeline();
    for (const [accountId, slots] of mine) {
      for (const slot of slots) pipeline.zadd(keyOf(accountId), 'XX', lapsesAt, slot);
      pipeline.pexpire(keyOf(accountId), leaseMs);
    }
    if (pipeline.length === 0) return;
    await pipeline.exec().then(answered, failed);
  };
  const timer = setInterval(() => void renew(), options.renewMs ?? leaseMs / 3);
  timer.unref();

  return {
    async take(accountId, limit) {
      const slot = randomBytes(8).toString('hex');
      const now = clock.now();
      try {
        const args = [now, now + leaseMs, limit, slot, leaseMs];
        const taken = await runScript(redis, TAKE, [keyOf(accountId)], args);
        answered();
        if (taken !== 1) return null;
        let held = mine.get(accountId);
        if (!held) mine.set(accountId, (held = new Set()));
        held.add(slot);
        return slot;
      } catch (error) {
        failed(error);
        const fallback = await local.take(accountId, limit);
        if (fallback) localSlots.add(fallback);
        return fallback;
      }
    },
    release(accountId, slot) {
      if (localSlots.delete(slot)) {
        local.release(accountId, slot);
        return;
      }
      const held = mine.get(accountId);
      held?.delete(slot);
      if (held?.size === 0) mine.delete(accountId);
      redis.zrem(keyOf(accountId), slot).then(answered, failed);
    },
    async held(accountId) {
      const now = clock.now();
      return redis.zcount(keyOf(accountId), `(${now}`, '+inf');
    },
    close() {
      clearInterval(timer);
      local.close();
    },
  };
}

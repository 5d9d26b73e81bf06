/**
 * Test helpers for suites that need a real Redis: the URL from REDIS_URL (suites skip visibly
 * when it is unset), a unique key prefix per run, key cleanup by prefix (never FLUSHALL), and
 * bursts judged within one minute of Redis's clock (the per-minute limits count by it).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const REDIS_URL = process.env.REDIS_URL ?? '';

/** Options for a describe that needs Redis: skipped, with the reason printed, without it. */
export const needsRedis: { skip: string | false } = {
  skip: REDIS_URL ? false : 'REDIS_URL not set',
};

export function testPrefix(): string {
  return `test:${randomBytes(6).toString('hex')}:`;
}

export async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when `condition` holds, polling every `everyMs`; rejects after `timeoutMs`. */
export async function eventually(
  condition: () => boolean,
  timeoutMs: number,
  everyMs = 10,
): Promise<void> {
  for (let waited = 0; !condition(); waited += everyMs) {
    if (waited >= timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await delay(everyMs);
  }
}

/** Milliseconds on Redis's own clock (TIME). */
export async function redisNow(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Waits for the next minute when fewer than 2 s of this one (on Redis's clock) are left. */
async function awayFromMinuteEnd(redis: Redis): Promise<void> {
  const untilEnd = 60_000 - ((await redisNow(redis)) % 60_000);
  if (untilEnd < 2_000) await delay(untilEnd + 50);
}

/**
 * Runs `burst` (attempt 0, 1, …: each on an untouched budget) until a run starts and ends in
 * one minute of Redis's clock; a run that crossed a minute boundary is not judged.
 */
export async function inOneRedisMinute<T>(
  redis: Redis,
  burst: (attempt: number) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    await awayFromMinuteEnd(redis);
    const minute = Math.floor((await redisNow(redis)) / 60_000);
    const result = await burst(attempt);
    if (Math.floor((await redisNow(redis)) / 60_000) === minute) return result;
    assert.ok(attempt < 2, 'three bursts each crossed a minute boundary');
  }
}

/**
 * Test helpers for suites that need a real Redis: the URL from REDIS_URL (suites skip visibly
 * when it is unset), a unique key prefix per run, and key cleanup by prefix (never FLUSHALL).
 */
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

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeRedis, luaScript, openRedis, runScript, whenReady } from './redis-support.ts';
import { REDIS_URL, eventually, needsRedis } from './redis-test-support.ts';

describe('Redis support without a server', () => {
  test(
    'a connection to a closed port is refused at once, not queued',
    { timeout: 5_000 },
    async () => {
      const errors: Error[] = [];
      const redis = openRedis('redis://127.0.0.1:6390', {}, (error) => errors.push(error));
      try {
        await assert.rejects(whenReady(redis));
        await assert.rejects(whenReady(redis), /redis connection (is|closed)/);
        await eventually(() => redis.status === 'connecting', 2_000, 1);
        await assert.rejects(
          whenReady(redis),
          /redis connection is connecting/,
          'no wait on retries',
        );
        await assert.rejects(redis.get('x'));
        assert.ok(errors.length > 0, 'connection errors reach the callback');
      } finally {
        await closeRedis(redis);
      }
      assert.equal(redis.status, 'end');
    },
  );
});

describe('Redis support', needsRedis, () => {
  let redis: Redis;
  before(async () => {
    redis = openRedis(REDIS_URL);
    await whenReady(redis);
  });
  after(async () => {
    await closeRedis(redis);
  });

  test('whenReady waits for the first connection, shared by concurrent callers', async () => {
    const fresh = openRedis(REDIS_URL);
    try {
      await Promise.all(Array.from({ length: 20 }, () => whenReady(fresh)));
      assert.equal(fresh.status, 'ready');
      assert.equal(fresh.listenerCount('ready'), 0, 'waiters leave no listeners behind');
    } finally {
      await closeRedis(fresh);
    }
  });

  test('runScript falls back to EVAL when the script is not cached, then uses EVALSHA', async () => {
    const script = luaScript(`-- ${randomBytes(8).toString('hex')}\nreturn ARGV[1] + 1`);
    assert.deepEqual(await redis.script('EXISTS', script.sha), [0]);
    assert.equal(await runScript(redis, script, [], [41]), 42);
    assert.deepEqual(await redis.script('EXISTS', script.sha), [1]);
    assert.equal(await runScript(redis, script, [], [1]), 2);
  });

  test('script errors other than NOSCRIPT are not retried', async () => {
    const script = luaScript(`return redis.call('NOPE-${randomBytes(4).toString('hex')}')`);
    await assert.rejects(
      runScript(redis, script, [], []),
      /Unknown Redis command|unknown command/i,
    );
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { manualClock } from '../domain/clock.ts';
import { REDIS_URL, deleteKeys, needsRedis, testPrefix } from '../events/redis-test-support.ts';
import { createMemoryStreamSlots, createRedisStreamSlots } from './stream-slots.ts';

const quiet = { error() {}, info() {} };

describe('memory stream slots', () => {
  test('at most the limit per account; a released slot is free again', async () => {
    const slots = createMemoryStreamSlots();
    const first = await slots.take('acme', 2);
    const second = await slots.take('acme', 2);
    assert.ok(first && second && first !== second);
    assert.equal(await slots.take('acme', 2), null);
    assert.ok(await slots.take('other', 2));
    slots.release('acme', first);
    assert.ok(await slots.take('acme', 2));
  });
});

describe('Redis stream slots: one count for every process', needsRedis, () => {
  const prefix = testPrefix();
  let redis: Redis;
  before(() => {
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  test('two processes share the limit; the slots of a dead process lapse after the lease', async () => {
    const clock = manualClock();
    const options = { redis, prefix, clock, logger: quiet, leaseMs: 30_000, renewMs: 3_600_000 };
    const processA = createRedisStreamSlots(options);
    const processB = createRedisStreamSlots(options);
    const onA = await processA.take('acme', 2);
    const onB = await processB.take('acme', 2);
    assert.ok(onA && onB);
    assert.equal(await processB.take('acme', 2), null, 'the third stream is refused anywhere');
    assert.equal(await processA.held('acme'), 2);
    processB.release('acme', onB);
    await redis.ping();
    assert.ok(await processA.take('acme', 2), 'a slot released on B is taken on A');

    processA.close(); // A dies without releasing: its two slots lapse once the lease ends
    assert.equal(await processB.take('acme', 2), null);
    clock.advance(30_001);
    assert.ok(await processB.take('acme', 2));
    processB.close();
  });
});

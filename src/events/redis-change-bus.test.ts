import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createRedisChangeBus, type RedisChangeBus } from './redis-change-bus.ts';
import type { ChangeEvent, GapReason } from './change-bus.ts';
import { changeBusContract, collect } from './change-bus-contract.ts';
import { encodeChange } from './change-wire.ts';
import { measurePropagation } from './propagation.ts';
import { largeBatch, sampleBatch } from './test-batches.ts';
import { REDIS_URL, eventually, needsRedis, testPrefix } from './redis-test-support.ts';

async function openBus(prefix = testPrefix(), maxMessageBytes?: number): Promise<RedisChangeBus> {
  const bus = createRedisChangeBus({ url: REDIS_URL, prefix, maxMessageBytes });
  await bus.ready;
  return bus;
}

/** CLIENT KILL of the subscriber connection named after the bus channel. */
async function killSubscriber(admin: Redis, channel: string): Promise<void> {
  const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
  const line = list.split('\n').find((entry) => entry.includes(` name=${channel}-subscriber `));
  const id = line?.match(/^id=(\d+) /)?.[1];
  assert.ok(id, 'subscriber connection found');
  await admin.call('CLIENT', 'KILL', 'ID', id);
}

describe('Redis change bus', needsRedis, () => {
  let admin: Redis;
  before(() => {
    admin = new Redis(REDIS_URL);
  });
  after(async () => {
    await admin.quit();
  });

  changeBusContract('redis pub/sub', () => openBus());

  test('an event published by one process reaches the others', async () => {
    const prefix = testPrefix();
    const [ingest, apiOne, apiTwo] = await Promise.all([1, 2, 3].map(() => openBus(prefix)));
    try {
      const one = collect(apiOne!, 1);
      const two = collect(apiTwo!, 1);
      const event: ChangeEvent = { game: 'cs2', batch: sampleBatch(4), origin: 'ingest:1' };
      await ingest!.publish(event);
      assert.deepEqual(await one.done, [event]);
      assert.deepEqual(await two.done, [event]);
    } finally {
      await Promise.all([ingest, apiOne, apiTwo].map((bus) => bus!.close()));
    }
  });

  test('an oversized batch travels in messages of at most 1 MB and arrives whole', async () => {
    const bus = await openBus();
    const raw = new Redis(REDIS_URL);
    try {
      const sizes: number[] = [];
      raw.on('message', (_channel: string, message: string) =>
        sizes.push(Buffer.byteLength(message)),
      );
      await raw.subscribe(bus.channel);
      const received = collect(bus, 1);
      const event: ChangeEvent = { game: 'cs2', batch: largeBatch(6_000), origin: 'ingest' };
      await bus.publish(event);
      assert.deepEqual(await received.done, [event]);
      await eventually(() => sizes.length >= 3, 5_000);
      assert.ok(
        sizes.every((size) => size <= 1_000_000),
        `message sizes ${sizes}`,
      );
    } finally {
      await raw.quit();
      await bus.close();
    }
  });

  test('after its connection is killed the subscriber re-subscribes and reports a gap', async () => {
    const bus = await openBus();
    try {
      const gaps: GapReason[] = [];
      bus.onGap((reason) => gaps.push(reason));
      await killSubscriber(admin, bus.channel);
      await eventually(() => gaps.length > 0, 5_000);
      assert.deepEqual(gaps, ['reconnect']);
      const received = collect(bus, 1);
      const event: ChangeEvent = { game: 'cs2', batch: sampleBatch(9), origin: 'ingest' };
      await bus.publish(event);
      assert.deepEqual(await received.done, [event]);
    } finally {
      await bus.close();
    }
  });

  test('a skipped publisher sequence number is reported as a gap', async () => {
    const bus = await openBus();
    try {
      const gaps: GapReason[] = [];
      bus.onGap((reason) => gaps.push(reason));
      const received = collect(bus, 2);
      const event: ChangeEvent = { game: 'cs2', batch: sampleBatch(), origin: 'ingest' };
      await admin.publish(bus.channel, encodeChange(event, 'lost-one', 1, 1_000_000)[0]!);
      await admin.publish(bus.channel, 'not json');
      await admin.publish(bus.channel, encodeChange(event, 'lost-one', 3, 1_000_000)[0]!);
      assert.equal((await received.done).length, 2, 'malformed messages are skipped');
      assert.deepEqual(gaps, ['sequence']);
    } finally {
      await bus.close();
    }
  });

  test('propagation delay over 200 messages', async () => {
    const prefix = testPrefix();
    const [ingest, api] = await Promise.all([openBus(prefix), openBus(prefix)]);
    try {
      const stats = await measurePropagation(ingest!, 200, {
        subscriber: api!,
        batch: sampleBatch(),
      });
      console.log(
        `redis change propagation: p50 ${stats.p50Ms} ms, p99 ${stats.p99Ms} ms, ` +
          `max ${stats.maxMs} ms over ${stats.count} messages`,
      );
      assert.equal(stats.count, 200);
      assert.ok(stats.p50Ms <= stats.p99Ms);
    } finally {
      await Promise.all([ingest!.close(), api!.close()]);
    }
  });
});

describe('Redis change bus without a server', () => {
  test(
    'publish fails fast instead of queueing while Redis is unreachable',
    { timeout: 10_000 },
    async () => {
      const bus = createRedisChangeBus({ url: 'redis://127.0.0.1:6390', prefix: testPrefix() });
      try {
        await assert.rejects(bus.publish({ game: 'cs2', batch: sampleBatch(), origin: 'ingest' }));
      } finally {
        await bus.close();
      }
    },
  );
});

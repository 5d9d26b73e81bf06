import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { createRedisLease, createMemoryLease, leaseOwner } from './lease.ts';
import { createLeaseKeeper, redisLeases, type LeaseKeeper } from './lease-keeper.ts';
import { systemClock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import {
  REDIS_URL,
  deleteKeys,
  eventually,
  needsRedis,
  testPrefix,
} from '../events/redis-test-support.ts';

const MARKETS: MarketId[] = ['skinport', 'buff163', 'csfloat', 'dmarket'];
/**
 * Short real leases. How soon a standby takes over is timed in lease-keeper.test.ts on a manual
 * clock; here the order of events on a real Redis is checked, and the waits are hang guards.
 */
const TTL = 600;
const HANG_GUARD_MS = 60_000;

describe('memory lease', () => {
  test('is always held', async () => {
    const lease = createMemoryLease('lease:skinport');
    assert.equal(await lease.acquire(), 1);
    assert.equal(await lease.renew(), true);
    await lease.release();
    assert.equal(await lease.renew(), true);
  });
});

describe('Redis lease', needsRedis, () => {
  let redis: Redis;
  const prefix = testPrefix();
  before(() => {
    redis = new Redis(REDIS_URL);
  });
  after(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  test('only the owner renews or releases it', async () => {
    const key = `${prefix}lease:skinport`;
    const first = createRedisLease({ redis, key, ttlMs: 60_000, owner: leaseOwner() });
    const second = createRedisLease({ redis, key, ttlMs: 60_000, owner: leaseOwner() });
    const token = await first.acquire();
    assert.ok(token !== null && token > 0);
    assert.equal(await first.acquire(), token, 'acquiring a held lease keeps it and its token');
    assert.equal(await second.acquire(), null);
    assert.equal(await second.renew(), false);
    await second.release();
    assert.equal(await redis.exists(key), 1, 'a non-owner cannot release');
    await redis.pexpire(key, 5_000);
    assert.equal(await first.renew(), true);
    assert.ok((await redis.pttl(key)) > 50_000, 'renew extends to the full ttl');
    await first.release();
    assert.equal(await redis.exists(key), 0);
    assert.equal(await second.acquire(), token + 1, 'the next holder draws a larger token');
  });

  test('every new holding draws a larger fencing token, also after an expiry', async () => {
    const key = `${prefix}lease:csfloat`;
    const owners = [leaseOwner(), leaseOwner()];
    const leases = owners.map((owner) => createRedisLease({ redis, key, ttlMs: 60_000, owner }));
    const tokens: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      tokens.push((await leases[round % 2]!.acquire())!);
      await redis.del(key);
    }
    tokens.push((await leases[1]!.acquire())!);
    for (let i = 1; i < tokens.length; i += 1) assert.ok(tokens[i]! > tokens[i - 1]!, `${tokens}`);
  });

  describe('two keepers on one Redis', () => {
    const keepers: LeaseKeeper[] = [];
    const keeperOn = (keyPrefix: string) => {
      const owner = leaseOwner();
      const keeper = createLeaseKeeper({
        markets: MARKETS,
        lease: redisLeases({ redis, prefix: keyPrefix, ttlMs: TTL, owner }),
        ttlMs: TTL,
        clock: systemClock,
      });
      keepers.push(keeper);
      return { keeper, owner };
    };
    after(() => {
      for (const keeper of keepers) keeper.abandon();
    });

    const exactlyOneHolds = (a: LeaseKeeper, b: LeaseKeeper) =>
      MARKETS.every((market) => a.holds(market) !== b.holds(market));

    test('each market is held by exactly one; the standby takes over when the holder dies', async () => {
      const keyPrefix = testPrefix();
      const first = keeperOn(keyPrefix);
      const second = keeperOn(keyPrefix);
      await Promise.all([first.keeper.start(), second.keeper.start()]);
      assert.ok(exactlyOneHolds(first.keeper, second.keeper));
      const holders = await Promise.all(MARKETS.map((m) => redis.get(`${keyPrefix}lease:${m}`)));
      for (const [i, market] of MARKETS.entries()) {
        const expected = first.keeper.holds(market) ? first.owner : second.owner;
        assert.equal(holders[i], expected);
      }

      const [dying, standby] = first.keeper.held().length > 0 ? [first, second] : [second, first];
      const orphaned = dying.keeper.held();
      dying.keeper.abandon();
      await eventually(() => orphaned.every((m) => standby.keeper.holds(m)), HANG_GUARD_MS, 5);
      assert.deepEqual(standby.keeper.held(), MARKETS);
      const taken = await Promise.all(orphaned.map((m) => redis.get(`${keyPrefix}lease:${m}`)));
      assert.ok(
        taken.every((owner) => owner === standby.owner),
        'the standby holds them in Redis (after they expired: a held key is never overwritten)',
      );
      await standby.keeper.stop();
      await deleteKeys(redis, keyPrefix);
    });

    test('a clean stop hands the markets over at the next retry', async () => {
      const keyPrefix = testPrefix();
      const first = keeperOn(keyPrefix);
      await first.keeper.start();
      const second = keeperOn(keyPrefix);
      await second.keeper.start();
      assert.deepEqual(first.keeper.held(), MARKETS);
      await first.keeper.stop();
      assert.equal(await redis.exists(`${keyPrefix}lease:skinport`), 0);
      await eventually(() => second.keeper.held().length === MARKETS.length, HANG_GUARD_MS, 5);
      await second.keeper.stop();
    });
  });
});

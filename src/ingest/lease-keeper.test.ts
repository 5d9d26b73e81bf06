import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLeaseKeeper, memoryLeases, type LeaseKeeper } from './lease-keeper.ts';
import type { Lease } from './lease.ts';
import { manualClock, type ManualClock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import { capturingLogger, manualTimers, type ManualTimers } from './test-fixtures.ts';

const TTL = 3_000;
const MARKETS: MarketId[] = ['skinport', 'buff163', 'csfloat'];

/** Lease semantics of the Redis lease over a map and a manual clock; `down` makes calls fail. */
function fakeStore(clock: ManualClock) {
  const keys = new Map<string, { owner: string; expiresAt: number }>();
  const state = { down: false };
  const holder = (key: string) => {
    const entry = keys.get(key);
    return entry && entry.expiresAt > clock.now() ? entry.owner : null;
  };
  const check = () => {
    if (state.down) throw new Error('ECONNREFUSED');
  };
  const leases =
    (owner: string) =>
    (market: MarketId): Lease => {
      const key = `lease:${market}`;
      const extend = () => keys.set(key, { owner, expiresAt: clock.now() + TTL });
      return {
        key,
        async acquire() {
          check();
          const current = holder(key);
          if (current !== null && current !== owner) return false;
          extend();
          return true;
        },
        async renew() {
          check();
          if (holder(key) !== owner) return false;
          extend();
          return true;
        },
        async release() {
          check();
          if (holder(key) === owner) keys.delete(key);
        },
      };
    };
  return { state, leases, holder };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Moves the clock on by `ms`, then runs the keeper's pending round. */
async function advance(clock: ManualClock, timers: ManualTimers, ms: number) {
  clock.advance(ms);
  for (const timer of timers.pending()) {
    assert.equal(timer.ms, TTL / 3, 'rounds run every ttl/3');
    timers.fire(timer.id);
  }
  await flush();
}

function keeper(
  owner: string,
  store: ReturnType<typeof fakeStore>,
  clock: ManualClock,
  timers: ManualTimers,
  changes: string[] = [],
  logger = capturingLogger(),
): LeaseKeeper {
  return createLeaseKeeper({
    markets: MARKETS,
    lease: store.leases(owner),
    ttlMs: TTL,
    clock,
    timers,
    logger,
    onChange: (market, held) => changes.push(`${owner} ${held ? '+' : '-'}${market}`),
  });
}

describe('lease keeper', () => {
  test('one keeper holds each market; the standby takes over after the holder dies', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const [timersA, timersB] = [manualTimers(), manualTimers()];
    const changes: string[] = [];
    const a = keeper('a', store, clock, timersA, changes);
    const b = keeper('b', store, clock, timersB, changes);
    await a.start();
    await b.start();
    assert.deepEqual(a.held(), MARKETS);
    assert.deepEqual(b.held(), []);

    clock.advance(TTL / 3);
    timersA.fire(timersA.pending()[0]!.id);
    await flush();
    const lastRenewal = clock.now();
    a.abandon();
    assert.deepEqual(timersA.pending(), [], 'a dead keeper schedules nothing');

    let tookOverAt: number | null = null;
    while (tookOverAt === null) {
      await advance(clock, timersB, TTL / 3);
      if (b.holds('skinport')) tookOverAt = clock.now();
      assert.ok(clock.now() - lastRenewal <= 3 * TTL, 'gave up waiting');
    }
    assert.ok(tookOverAt - lastRenewal <= TTL + TTL / 3, `took ${tookOverAt - lastRenewal} ms`);
    assert.deepEqual(b.held(), MARKETS);
    assert.deepEqual(changes, [
      'a +skinport',
      'a +buff163',
      'a +csfloat',
      'b +skinport',
      'b +buff163',
      'b +csfloat',
    ]);
  });

  test('stop() releases, so the standby takes over at its next round', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const [timersA, timersB] = [manualTimers(), manualTimers()];
    const changes: string[] = [];
    const a = keeper('a', store, clock, timersA, changes);
    const b = keeper('b', store, clock, timersB);
    await a.start();
    await b.start();
    await a.stop();
    assert.equal(a.holds('buff163'), false);
    assert.deepEqual(changes.slice(3), ['a -skinport', 'a -buff163', 'a -csfloat']);
    await advance(clock, timersB, 1);
    assert.deepEqual(b.held(), MARKETS);
  });

  test('a lost renewal is reported and retried as an acquire', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const timers = manualTimers();
    const changes: string[] = [];
    const a = keeper('a', store, clock, timers, changes);
    await a.start();
    clock.advance(TTL + 1);
    const usurper = store.leases('z')('csfloat');
    assert.equal(await usurper.acquire(), true);
    await advance(clock, timers, 0);
    assert.equal(a.holds('csfloat'), false);
    assert.ok(changes.includes('a -csfloat'));
    assert.equal(store.holder('lease:csfloat'), 'z');
  });

  test('while the store is unreachable a lease is kept only while surely valid', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const timers = manualTimers();
    const logger = capturingLogger();
    const a = keeper('a', store, clock, timers, [], logger);
    await a.start();
    const confirmed = clock.now();
    store.state.down = true;
    await advance(clock, timers, TTL / 3);
    assert.equal(a.holds('skinport'), true, 'still valid after the next round');
    await advance(clock, timers, TTL / 3);
    assert.equal(a.holds('skinport'), false, 'dropped before it can expire unseen');
    assert.ok(clock.now() < confirmed + TTL);
    assert.deepEqual(
      logger.lines.map((line) => line.level),
      ['warn'],
      'logged once per outage',
    );
    store.state.down = false;
    await advance(clock, timers, TTL / 3);
    assert.equal(a.holds('skinport'), true);
    assert.equal(logger.lines[1]?.level, 'info');
  });

  test('memory leases are always held', async () => {
    const timers = manualTimers();
    const a = createLeaseKeeper({
      markets: MARKETS,
      lease: memoryLeases,
      ttlMs: TTL,
      clock: manualClock(),
      timers,
    });
    await a.start();
    assert.deepEqual(a.held(), MARKETS);
    await a.stop();
    assert.deepEqual(timers.pending(), []);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createLeaseKeeper,
  DEADLINE_GUARD_SHARE,
  memoryLeases,
  type LeaseKeeper,
} from './lease-keeper.ts';
import type { Lease } from './lease.ts';
import { manualClock, type ManualClock } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import { capturingLogger, manualTimers, type ManualTimers } from './test-fixtures.ts';

const TTL = 3_000;
const MARKETS: MarketId[] = ['skinport', 'buff163', 'csfloat'];

/**
 * Lease semantics of the Redis lease over a map and a manual clock; `down` makes calls fail,
 * `hang` makes them wait until `release()` of the returned gate.
 */
function fakeStore(clock: ManualClock) {
  const keys = new Map<string, { owner: string; expiresAt: number }>();
  const fences = new Map<string, number>();
  const state = { down: false, hang: null as Promise<void> | null, requests: 0 };
  const holder = (key: string) => {
    const entry = keys.get(key);
    return entry && entry.expiresAt > clock.now() ? entry.owner : null;
  };
  const check = async () => {
    state.requests += 1;
    if (state.hang) await state.hang;
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
          await check();
          const current = holder(key);
          if (current !== null && current !== owner) return null;
          if (current === null) fences.set(key, (fences.get(key) ?? 0) + 1);
          extend();
          return fences.get(key)!;
        },
        async renew() {
          await check();
          if (holder(key) !== owner) return false;
          extend();
          return true;
        },
        async release() {
          await check();
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
    assert.equal(await usurper.acquire(), 2);
    await advance(clock, timers, 0);
    assert.equal(a.holds('csfloat'), false);
    assert.ok(changes.includes('a -csfloat'));
    assert.equal(store.holder('lease:csfloat'), 'z');
  });

  test('while the store is unreachable a lease is trusted only until its deadline', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const timers = manualTimers();
    const logger = capturingLogger();
    const a = keeper('a', store, clock, timers, [], logger);
    await a.start();
    const deadline = clock.now() + TTL - TTL * DEADLINE_GUARD_SHARE;
    store.state.down = true;
    await advance(clock, timers, TTL / 3);
    await advance(clock, timers, TTL / 3);
    clock.advance(deadline - 1 - clock.now());
    assert.equal(a.holds('skinport'), true, 'still valid just before the deadline');
    clock.advance(1);
    assert.equal(a.holds('skinport'), false, 'dropped before it can expire unseen');
    assert.equal(a.fence('skinport'), null);
    assert.deepEqual(
      logger.lines.map((line) => line.level),
      ['warn'],
      'logged once per outage',
    );
    store.state.down = false;
    await advance(clock, timers, TTL / 3 - (clock.now() % (TTL / 3)));
    assert.equal(a.holds('skinport'), true);
    assert.equal(a.fence('skinport'), 2, 'the key ran out meanwhile: a new holding, a new token');
    assert.equal(logger.lines[1]?.level, 'info');
  });

  test('a renewal that hangs neither blocks the rounds nor keeps the lease past its deadline', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const timers = manualTimers();
    const a = keeper('a', store, clock, timers);
    await a.start();
    const deadline = clock.now() + TTL - TTL * DEADLINE_GUARD_SHARE;
    let open = () => {};
    store.state.hang = new Promise<void>((resolve) => (open = resolve));
    const before = store.state.requests;
    await advance(clock, timers, TTL / 3);
    const sentAt = clock.now();
    await advance(clock, timers, TTL / 3);
    assert.equal(store.state.requests - before, MARKETS.length, 'one request out per market');
    assert.equal(timers.pending().length, 1, 'the next round is scheduled anyway');
    assert.equal(a.holds('csfloat'), true);
    clock.advance(deadline - clock.now());
    assert.equal(a.holds('csfloat'), false, 'no polling once the deadline has passed');
    clock.advance(sentAt + TTL - TTL * DEADLINE_GUARD_SHARE - clock.now());
    store.state.hang = null;
    open();
    await flush();
    assert.equal(a.holds('csfloat'), false, 'a late answer counts from when it was sent');
  });

  test('a slow renewal that succeeds keeps the lease without a gap', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const timers = manualTimers();
    const changes: string[] = [];
    const a = keeper('a', store, clock, timers, changes);
    await a.start();
    let open = () => {};
    store.state.hang = new Promise<void>((resolve) => (open = resolve));
    await advance(clock, timers, TTL / 3);
    const sentAt = clock.now();
    clock.advance(TTL / 2);
    store.state.hang = null;
    open();
    await flush();
    clock.advance(sentAt + TTL - TTL * DEADLINE_GUARD_SHARE - 1 - clock.now());
    assert.equal(a.holds('buff163'), true, 'valid until the renewal sent at sentAt runs out');
    assert.deepEqual(changes, ['a +skinport', 'a +buff163', 'a +csfloat'], 'never dropped');
  });

  test('a paused holder stops at once on waking; the new holder has a larger token', async () => {
    const clock = manualClock();
    const store = fakeStore(clock);
    const [timersA, timersB] = [manualTimers(), manualTimers()];
    const a = keeper('a', store, clock, timersA);
    const b = keeper('b', store, clock, timersB);
    await a.start();
    await b.start();
    const before = a.fence('dmarket' as MarketId) ?? a.fence('skinport');
    clock.advance(2 * TTL);
    await advance(clock, timersB, 0);
    assert.equal(b.holds('skinport'), true);
    assert.equal(a.holds('skinport'), false, 'no poll after SIGCONT, before any round runs');
    assert.ok(b.fence('skinport')! > before!);
    await advance(clock, timersA, 0);
    assert.equal(a.holds('skinport'), false);
    assert.deepEqual(a.held(), []);
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

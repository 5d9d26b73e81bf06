import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { BookObservation, Observation } from '../../domain/observation.ts';
import { AdapterError, SimulatedFailure, type MarketAdapter } from '../market-adapter.ts';
import { createSimAdapters, type SimMarketAdapter } from './adapters.ts';
import { TEST_CATALOGS } from './test-catalog.ts';

const NOON = Date.parse('2026-11-01T12:00:00Z');
const TIMES = [NOON, NOON + 7 * MINUTE + 13_000, NOON + 5 * HOUR, NOON + 3 * 24 * HOUR];

async function fetchAndParse(adapter: MarketAdapter, game: Game, now: number) {
  const body = await adapter.fetchRaw({ game, now });
  return { body, result: adapter.parse(body, { game, now }) };
}

function books(observations: Observation[]): BookObservation[] {
  return observations.filter((o): o is BookObservation => o.kind === 'book');
}

describe('simulated market adapters', () => {
  const adapters = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS, faults: false });

  test('one adapter per market id, each with its registry info', () => {
    assert.equal(adapters.length, 21);
    assert.equal(new Set(adapters.map((a) => a.info.id)).size, 21);
  });

  test('same seed and time give a deep-equal body; another seed or time a different one', async () => {
    const twins = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS, faults: false });
    const other = createSimAdapters({ seed: 43, catalogs: TEST_CATALOGS, faults: false });
    for (const [index, adapter] of adapters.entries()) {
      for (const game of adapter.info.games) {
        const body = await adapter.fetchRaw({ game, now: NOON });
        assert.deepEqual(await twins[index]!.fetchRaw({ game, now: NOON }), body, adapter.info.id);
      }
    }
    const buff = await adapters[2]!.fetchRaw({ game: 'cs2', now: NOON });
    assert.notDeepEqual(await other[2]!.fetchRaw({ game: 'cs2', now: NOON }), buff);
    assert.notDeepEqual(await adapters[2]!.fetchRaw({ game: 'cs2', now: NOON + 3 * MINUTE }), buff);
  });

  test('every body parses cleanly through the real parser, in the market native units', async () => {
    for (const adapter of adapters) {
      for (const game of adapter.info.games) {
        for (const now of TIMES) {
          const { result } = await fetchAndParse(adapter, game, now);
          assert.deepEqual(result.rejected, [], `${adapter.info.id} ${game}`);
          for (const observation of result.observations) {
            assert.equal(observation.currency, adapter.info.currency);
            assert.equal(observation.scale, adapter.info.scale);
            assert.equal(observation.game, game);
          }
        }
      }
    }
  });

  test('bids only on bid markets, and always below that market own ask', async () => {
    const seen = new Set<string>();
    for (const adapter of adapters) {
      for (const game of adapter.info.games) {
        for (const now of TIMES) {
          const sides = books((await fetchAndParse(adapter, game, now)).result.observations);
          const bids = sides.filter((side) => side.side === 'bid' && side.levels.length > 0);
          if (bids.length > 0) seen.add(adapter.info.id);
          assert.ok(adapter.info.capabilities.bids || bids.length === 0, adapter.info.id);
          for (const bid of bids) {
            const ask = sides.find((side) => side.side === 'ask' && side.item === bid.item);
            assert.ok(
              ask && bid.levels[0]!.price < ask.levels[0]!.price,
              `${adapter.info.id} ${bid.item}`,
            );
          }
        }
      }
    }
    assert.deepEqual([...seen].sort(), [
      'buff163',
      'csfloat',
      'dmarket',
      'marketcsgo',
      'rusttm',
      'steamcommunity',
      'waxpeer',
    ]);
  });

  test('ladders run several levels deep on depth markets, best first', async () => {
    const steam = adapters.find((a) => a.info.id === 'steamcommunity')!;
    const sides = books((await fetchAndParse(steam, 'cs2', NOON)).result.observations);
    for (const side of sides.filter((s) => s.levels.length > 0)) {
      assert.ok(side.levels.length >= 3 && side.levels.length <= 10);
      const prices = side.levels.map((level) => level.price);
      const sorted = [...prices].sort((a, b) => (side.side === 'ask' ? a - b : b - a));
      assert.deepEqual(prices, sorted);
      assert.ok(
        side.listingCount! >= side.levels.reduce((sum, level) => sum + level.quantity, 0) ||
          side.side === 'bid',
      );
    }
  });

  test('Doppler phase entries are quoted only by markets that carry phases', async () => {
    const phaseNames = (observations: Observation[]) =>
      new Set(observations.filter((o) => /Doppler (Phase|Ruby)/.test(o.item)).map((o) => o.item));
    const steam = adapters.find((a) => a.info.id === 'steamcommunity')!;
    const buff = adapters.find((a) => a.info.id === 'buff163')!;
    assert.equal(phaseNames((await fetchAndParse(steam, 'cs2', NOON)).result.observations).size, 0);
    assert.ok(phaseNames((await fetchAndParse(buff, 'cs2', NOON)).result.observations).size > 0);
  });

  test('asking for a game the market does not list is a permanent error', async () => {
    const buff = adapters.find((a) => a.info.id === 'buff163')!;
    await assert.rejects(buff.fetchRaw({ game: 'rust', now: NOON }), (error: unknown) => {
      return error instanceof AdapterError && !error.retryable;
    });
  });

  test('the universe option caps how many items a market quotes', async () => {
    const [steam] = createSimAdapters({
      seed: 42,
      catalogs: TEST_CATALOGS,
      faults: false,
      universe: 2,
      markets: ['steamcommunity'],
    });
    const asks = books((await fetchAndParse(steam!, 'cs2', NOON)).result.observations).filter(
      (o) => o.side === 'ask',
    );
    assert.ok(asks.length <= 2 && asks.length > 0);
  });
});

describe('simulated faults', () => {
  const adapters = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS });
  const steam = adapters.find((a) => a.info.id === 'steamcommunity') as SimMarketAdapter;

  test('outages come a few times a day, last 20-90 minutes, and fail fetches as retryable', async () => {
    const downMinutes: number[] = [];
    for (let minute = 0; minute < 3 * 24 * 60; minute += 1) {
      const condition = steam.condition(NOON + minute * MINUTE);
      if (condition.kind === 'down' && condition.reason.includes('503')) downMinutes.push(minute);
    }
    const windows: number[][] = [];
    for (const minute of downMinutes) {
      const last = windows[windows.length - 1];
      if (last && last[last.length - 1] === minute - 1) last.push(minute);
      else windows.push([minute]);
    }
    assert.ok(windows.length >= 2 && windows.length <= 20, `${windows.length} outages in 3 days`);
    for (const window of windows.slice(1, -1))
      assert.ok(window.length >= 20 && window.length <= 90);
    const during = NOON + downMinutes[0]! * MINUTE;
    await assert.rejects(steam.fetchRaw({ game: 'cs2', now: during }), (error: unknown) => {
      return (
        error instanceof SimulatedFailure && error.retryable && /\(simulated\)/.test(error.message)
      );
    });
  });

  test('slow spells serve lagged data (older source time) and report a long latency', async () => {
    const tm = adapters.find((a) => a.info.id === 'marketcsgo') as SimMarketAdapter;
    let slowAt: number | null = null;
    for (let minute = 0; minute < 3 * 24 * 60 && slowAt === null; minute += 1) {
      const condition = tm.condition(NOON + minute * MINUTE);
      if (condition.kind === 'up' && condition.lagMs > 0) slowAt = NOON + minute * MINUTE;
    }
    assert.ok(slowAt !== null);
    const condition = tm.condition(slowAt);
    assert.ok(condition.kind === 'up' && condition.latencyMs >= 8000);
    const sides = books((await fetchAndParse(tm, 'cs2', slowAt)).result.observations);
    assert.ok(sides.length > 0 && sides.every((side) => side.sourceUpdatedAt! < slowAt!));
  });

  test('with faults off no market is ever down', () => {
    const calm = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS, faults: false });
    for (const adapter of calm) {
      for (let minute = 0; minute < 24 * 60; minute += 7) {
        assert.equal(adapter.condition(NOON + minute * MINUTE).kind, 'up');
      }
    }
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import type { SaleObservation } from '../../domain/observation.ts';
import { createSimAdapters } from './adapters.ts';
import { itemMarketKey } from './price-model.ts';
import { salesAsReported, salesBetween } from './sales.ts';
import { TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const NOON = Date.parse('2026-11-01T12:00:00Z');
const world = createSimWorld({ seed: 3, catalogs: TEST_CATALOGS });
const items = world.games.cs2!.items;
const popular = items.find((item) => item.name === 'Recoil Case')!;
const rare = items.find((item) => item.name === 'Glock-18 | Sand Dune (Battle-Scarred)')!;

describe('simulated sales', () => {
  test('windows partition the sales: (a, c] = (a, b] + (b, c]', () => {
    const key = itemMarketKey(world, 'steamcommunity', popular);
    const whole = salesBetween(world, 'steamcommunity', popular, key, NOON, NOON + 6 * HOUR);
    const left = salesBetween(
      world,
      'steamcommunity',
      popular,
      key,
      NOON,
      NOON + 2 * HOUR + 7 * MINUTE,
    );
    const right = salesBetween(
      world,
      'steamcommunity',
      popular,
      key,
      NOON + 2 * HOUR + 7 * MINUTE,
      NOON + 6 * HOUR,
    );
    assert.deepEqual([...left, ...right], whole);
    assert.ok(whole.every((sale, index) => index === 0 || whole[index - 1]!.soldAt <= sale.soldAt));
  });

  test('popular items trade many times a day, rare ones a few times a week at most', () => {
    const count = (item: typeof popular, days: number) =>
      salesBetween(
        world,
        'steamcommunity',
        item,
        itemMarketKey(world, 'steamcommunity', item),
        NOON,
        NOON + days * DAY,
      ).length;
    const popularPerDay = count(popular, 2) / 2;
    assert.ok(popularPerDay > 100 && popularPerDay < 500, `${popularPerDay}/day`);
    assert.ok(count(rare, 14) <= 10);
  });

  test('consecutive fetches on cadence report every sale exactly once', async () => {
    const [buff] = createSimAdapters({
      seed: 3,
      catalogs: TEST_CATALOGS,
      faults: false,
      markets: ['buff163'],
    });
    const reported: SaleObservation[] = [];
    const cadence = buff!.info.cadenceMs;
    for (let now = NOON + 17_000; now < NOON + 4 * HOUR; now += cadence) {
      const body = await buff!.fetchRaw({ game: 'cs2', now });
      for (const o of buff!.parse(body, { game: 'cs2', now }).observations)
        if (o.kind === 'sale') reported.push(o);
    }
    const case_ = reported.filter((sale) => sale.item === 'Recoil Case');
    const key = itemMarketKey(world, 'buff163', popular);
    const expected = salesAsReported(
      salesBetween(world, 'buff163', popular, key, NOON - cadence, NOON + 4 * HOUR - cadence),
    );
    assert.ok(expected.length > 10);
    assert.deepEqual(
      case_.map((sale) => sale.soldAt),
      expected.map((sale) => sale.soldAt),
    );
    assert.ok(case_.every((sale) => sale.price > 0 && sale.quantity >= 1));
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, manualClock, MINUTE } from '../domain/clock.ts';
import type { Tier } from '../pricing/rollup-buckets.ts';
import { T0 } from './contract-fixtures.ts';
import {
  compactHistory,
  startHistoryCompaction,
  type CompactionResult,
} from './history-compaction.ts';
import { ask, SERIES } from './history-contract-support.ts';
import type { HistoryStore } from './history-store.ts';
import { createSqlitePriceStore } from './sqlite/sqlite-price-store.ts';

const NOW = T0 + 800 * DAY;
const CUT_10M = NOW - 45 * DAY;
const CUT_1H = NOW - 180 * DAY;

async function storeWith(times: number[]) {
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  for (const at of times) {
    await store.writeBatch({ sides: [ask('skinport', 1000, at - T0)], sales: [], listings: [] });
  }
  return store;
}

async function starts(store: HistoryStore, tier: Tier): Promise<number[]> {
  const rows = await store.readRollups(SERIES.skinport, tier, 0, NOW + DAY);
  return rows.map((row) => row.start);
}

describe('compactHistory', () => {
  test('removes exactly the buckets that ended by each tier’s horizon (45 d, 180 d, forever)', async () => {
    const times = {
      hourEnding: CUT_1H - HOUR + MINUTE,
      hourStarting: CUT_1H + MINUTE,
      tenBefore: CUT_10M - 11 * MINUTE,
      tenEnding: CUT_10M - 10 * MINUTE,
      tenStarting: CUT_10M,
      recent: NOW - HOUR,
    };
    const store = await storeWith(Object.values(times));
    const days = await starts(store, '1d');
    const { expired } = await compactHistory(store, NOW, { rowsPerStep: 1 });
    assert.deepEqual(await starts(store, '10m'), [CUT_10M, NOW - HOUR]);
    assert.deepEqual(await starts(store, '1h'), [CUT_1H, CUT_10M - HOUR, CUT_10M, NOW - HOUR]);
    assert.deepEqual(await starts(store, '1d'), days, 'daily buckets stay forever');
    const perSeries = { '10m': 4, '1h': 1, '1d': 0 };
    const bothSeries = { '10m': 2 * perSeries['10m'], '1h': 2 * perSeries['1h'], '1d': 0 };
    assert.deepEqual(
      expired,
      bothSeries satisfies CompactionResult['expired'],
      'the market and the aggregate',
    );
    const again = await compactHistory(store, NOW);
    assert.deepEqual(again.expired, { '10m': 0, '1h': 0, '1d': 0 });
    await store.close();
  });

  test('the windows are configurable per tier, and a tier can be kept forever', async () => {
    const store = await storeWith([NOW - 40 * DAY, NOW - 400 * DAY, NOW - 2 * HOUR]);
    await compactHistory(store, NOW, {
      retention: { '10m': 30 * DAY, '1h': null, '1d': 365 * DAY },
    });
    assert.deepEqual(await starts(store, '10m'), [NOW - 2 * HOUR]);
    assert.equal((await starts(store, '1h')).length, 3);
    assert.deepEqual(await starts(store, '1d'), [NOW - 40 * DAY, NOW - DAY]);
    await store.close();
  });
});

describe('startHistoryCompaction', () => {
  test('runs passes on its interval at the clock’s time until stopped', async () => {
    const store = await storeWith([NOW - 100 * DAY, NOW - HOUR]);
    const clock = manualClock(NOW);
    const passes: CompactionResult[] = [];
    let firstPass!: () => void;
    const done = new Promise<void>((resolve) => (firstPass = resolve));
    const job = startHistoryCompaction({
      store,
      clock,
      intervalMs: 1,
      onPass: (result) => {
        passes.push(result);
        firstPass();
      },
    });
    const keepAlive = setInterval(() => {}, 1_000); // the job's own timer is unref'd
    await done;
    clearInterval(keepAlive);
    await job.stop();
    assert.deepEqual(passes[0]?.expired, { '10m': 2, '1h': 0, '1d': 0 });
    assert.deepEqual(await starts(store, '10m'), [NOW - HOUR]);
    await store.close();
  });
});

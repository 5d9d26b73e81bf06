import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { Observation } from '../../domain/observation.ts';
import { AdapterError } from '../market-adapter.ts';
import { createSimAdapters } from './adapters.ts';
import { simBackfill } from './backfill.ts';
import { TEST_CATALOGS } from './test-catalog.ts';
import { createSimWorld } from './world.ts';

const FROM = Date.parse('2026-11-01T00:00:00Z');
const TO = FROM + 12 * HOUR;
const ITEM_COUNT = 10;

function eventTime(observation: Observation): number {
  return observation.kind === 'sale' ? observation.soldAt : observation.fetchedAt;
}

function sortKey(o: Observation): string {
  const side = o.kind === 'book' ? o.side : '';
  return `${eventTime(o)}|${o.game}|${o.market}|${o.item}|${o.kind}|${side}|${o.kind === 'sale' ? o.price : ''}`;
}

const byKey = (a: Observation, b: Observation) => (sortKey(a) < sortKey(b) ? -1 : 1);

const DOPPLER = /\| (Gamma )?Doppler/;

/** Per market, game, item and side: the first book's best price and times (what history keeps). */
function bestPrices(observations: readonly Observation[]): Map<string, unknown> {
  const best = new Map<string, unknown>();
  for (const o of observations) {
    if (o.kind !== 'book') continue;
    const key = `${o.market}|${o.game}|${o.item}|${o.side}`;
    if (best.has(key)) continue;
    best.set(key, [o.levels[0]?.price ?? null, o.fetchedAt, o.sourceUpdatedAt]);
  }
  return best;
}

describe('simBackfill', () => {
  const options = {
    seed: 5,
    catalogs: TEST_CATALOGS,
    fromMs: FROM,
    toMs: TO,
    stepMs: 10 * MINUTE,
    itemLimit: ITEM_COUNT,
  };

  test('yields one chunk per step, in time order', () => {
    const chunks = [...simBackfill(options)];
    assert.equal(chunks.length, 12 * 6 + 1);
    let last = -Infinity;
    for (const chunk of chunks) {
      for (const observation of chunk) {
        assert.ok(eventTime(observation) >= last);
        last = eventTime(observation);
      }
    }
    const all = chunks.flat();
    assert.ok(
      all.some((o) => o.kind === 'sale') && all.some((o) => o.kind === 'book' && o.side === 'bid'),
    );
    assert.ok(all.every((o) => o.kind !== 'listing'));
  });

  test('is deterministic, and another seed gives another history', () => {
    assert.deepEqual([...simBackfill(options)], [...simBackfill(options)]);
    assert.notDeepEqual([...simBackfill({ ...options, seed: 6 })], [...simBackfill(options)]);
  });

  test('best prices equal what the live parsers read at the same moment (outages included)', async () => {
    const at = FROM + 3 * HOUR;
    const [chunk] = [...simBackfill({ ...options, fromMs: at, toMs: at })];
    const live: Observation[] = [];
    for (const adapter of createSimAdapters({ seed: 5, catalogs: TEST_CATALOGS })) {
      for (const game of adapter.info.games) {
        try {
          const body = await adapter.fetchRaw({ game, now: at });
          live.push(
            ...adapter.parse(body, { game, now: at }).observations.filter((o) => o.kind === 'book'),
          );
        } catch (error) {
          assert.ok(error instanceof AdapterError && error.retryable);
          assert.ok(chunk!.every((o) => o.market !== adapter.info.id));
        }
      }
    }
    assert.ok(live.length > 50);
    const backfilled = bestPrices(chunk!);
    const parsed = bestPrices(live);
    for (const [key, prices] of backfilled) assert.deepEqual(parsed.get(key), prices, key);
    const onlyLive = [...parsed.keys()].filter((key) => !backfilled.has(key));
    assert.deepEqual(
      onlyLive.filter((key) => !DOPPLER.test(key)),
      [],
      'only Dopplers, which the single listings of all their phases price',
    );
  });

  test('alsoItems are covered wherever they rank; unknown names are ignored', () => {
    const ranked = createSimWorld({ seed: 5, catalogs: TEST_CATALOGS }).games.cs2!.items;
    const limit = 2;
    const far = ranked[limit + 1]!.name;
    const itemsOf = (alsoItems: string[]) =>
      new Set(
        [...simBackfill({ ...options, itemLimit: limit, alsoItems })]
          .flat()
          .map((o) => `${o.kind}:${o.item}`),
      );
    const plain = itemsOf([]);
    const withFar = itemsOf([far, 'No Such Item']);
    assert.ok(![...plain].some((key) => key.endsWith(`:${far}`)));
    assert.ok(withFar.has(`book:${far}`), far);
    assert.deepEqual(
      [...withFar].filter((key) => !key.endsWith(`:${far}`)).sort(),
      [...plain].sort(),
    );
  });

  test('sales equal what live fetches on cadence report', async () => {
    const to = FROM + 2 * HOUR;
    const markets = ['buff163', 'csfloat', 'dmarket'] as const;
    const backfilled = [...simBackfill({ ...options, toMs: to, markets, faults: false })]
      .flat()
      .filter((o) => o.kind === 'sale');
    const live: Observation[] = [];
    for (const adapter of createSimAdapters({
      seed: 5,
      catalogs: TEST_CATALOGS,
      faults: false,
      markets,
    })) {
      for (const game of adapter.info.games) {
        for (let now = FROM + adapter.info.cadenceMs; now <= to; now += adapter.info.cadenceMs) {
          const parsed = adapter.parse(await adapter.fetchRaw({ game, now }), { game, now });
          live.push(...parsed.observations.filter((o) => o.kind === 'sale'));
        }
      }
    }
    assert.ok(backfilled.length > 20);
    assert.deepEqual(backfilled.sort(byKey), live.sort(byKey));
  });

  test('chunks of steps × item slices hold the same observations, each chunk in time order', () => {
    const whole = [...simBackfill(options)].flat();
    const chunks = [...simBackfill({ ...options, stepsPerChunk: 5, itemsPerChunk: 3 })];
    assert.ok(chunks.length > 20);
    for (const chunk of chunks) {
      assert.ok(new Set(chunk.map((o) => o.item)).size <= 3 * 2, 'at most 3 items per game');
      for (let index = 1; index < chunk.length; index += 1) {
        assert.ok(eventTime(chunk[index]!) >= eventTime(chunk[index - 1]!));
      }
    }
    assert.deepEqual(chunks.flat().sort(byKey), whole.sort(byKey));
  });

  test('skipping the first chunks yields the remaining ones unchanged, counted from the start', () => {
    const chunked = { ...options, stepsPerChunk: 5, itemsPerChunk: 3 };
    const whole = [...simBackfill(chunked)];
    const progress: number[] = [];
    const rest = [
      ...simBackfill({ ...chunked, skipChunks: 7, onProgress: (done) => progress.push(done) }),
    ];
    assert.deepEqual(rest, whole.slice(7));
    assert.equal(progress[0], 8);
    assert.equal(progress.at(-1), whole.length);
  });

  test('named then popular equals one combined run', () => {
    const ranked = createSimWorld({ seed: 5, catalogs: TEST_CATALOGS }).games.cs2!.items;
    const limit = 4;
    const alsoItems = [ranked[1]!.name, ranked[limit + 1]!.name];
    const run = (cover: 'all' | 'named' | 'popular') =>
      [...simBackfill({ ...options, itemLimit: limit, alsoItems, cover })].flat();
    const named = run('named');
    assert.deepEqual(new Set(named.map((o) => o.item)), new Set(alsoItems));
    assert.ok(run('popular').every((o) => !alsoItems.includes(o.item)));
    assert.deepEqual([...named, ...run('popular')].sort(byKey), run('all').sort(byKey));
  });
});

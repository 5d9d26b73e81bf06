import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { ask, bid, marketSides } from './snapshot-fixtures.ts';
import {
  BAR_COUNT,
  BAR_WIDTH_MS,
  collectMarketBookStats,
  firstBarStart,
  healthBars,
  lastError,
  liveness,
  marketHealthRow,
} from './market-health.ts';

const NOW = Date.parse('2026-11-01T12:10:00Z');

function record(startedAt: number, ok: boolean): FetchRecord {
  return {
    market: 'skinport',
    game: 'cs2',
    startedAt,
    fetchedAt: startedAt + 5,
    ingestedAt: ok ? startedAt + 10 : null,
    ok,
    errorKind: ok ? null : 'retryable',
    observationCount: 1,
    rejectedCount: 0,
    failure: ok ? null : 'http_5xx',
    detail: null,
    unmappedCount: 0,
  };
}

describe('liveness', () => {
  test('live within 2 cadences, warn within 6, stale beyond or never', () => {
    const cadence = MINUTE;
    assert.equal(liveness(NOW - 2 * cadence, cadence, NOW), 'live');
    assert.equal(liveness(NOW - 2 * cadence - 1, cadence, NOW), 'warn');
    assert.equal(liveness(NOW - 6 * cadence, cadence, NOW), 'warn');
    assert.equal(liveness(NOW - 6 * cadence - 1, cadence, NOW), 'stale');
    assert.equal(liveness(null, cadence, NOW), 'stale');
  });
});

describe('healthBars', () => {
  test('48 half-hour buckets aligned to UTC, the current one last', () => {
    assert.equal(firstBarStart(NOW), Date.parse('2026-11-01T12:00:00Z') - 47 * BAR_WIDTH_MS);
    const bars = healthBars(
      [
        record(NOW - 1, true),
        record(NOW - 11 * MINUTE, true),
        record(NOW - 11 * MINUTE, false),
        record(NOW - 45 * MINUTE, false),
        ...Array.from({ length: 10 }, () => record(NOW - 100 * MINUTE, true)),
        record(NOW - 100 * MINUTE, false),
        record(firstBarStart(NOW) - 1, true),
      ],
      NOW,
    );
    assert.equal(bars.length, BAR_COUNT);
    assert.equal(bars[47], 2);
    assert.equal(bars[46], 1);
    assert.equal(bars[45], 0);
    assert.equal(bars[44], 2);
    assert.equal(bars.filter((bar) => bar === null).length, 44);
  });
});

describe('marketHealthRow', () => {
  test('listing counts and freshness coverage come from the book', () => {
    const stats = collectMarketBookStats([
      marketSides([
        ask({ market: 'skinport', prices: [100], fetchedAt: NOW - 30 * MINUTE, listingCount: 4 }),
      ]),
      marketSides([
        ask({ market: 'skinport', prices: [100], fetchedAt: NOW - 31 * MINUTE, listingCount: 6 }),
      ]),
      marketSides([bid({ market: 'skinport', prices: [90], fetchedAt: NOW - MINUTE })]),
      marketSides([bid({ market: 'csfloat', prices: [90], fetchedAt: NOW - MINUTE })]),
    ]);
    const row = marketHealthRow(
      {
        market: 'skinport',
        cadenceMs: MINUTE,
        lastSuccessAt: NOW - MINUTE,
        records: [],
        book: stats.get('skinport'),
      },
      NOW,
    );
    assert.deepEqual(row, {
      id: 'skinport',
      status: 'live',
      lastEventAt: new Date(NOW - MINUTE).toISOString(),
      listingsCount: 10,
      freshnessCoveragePct: 66.7,
      healthBars: new Array(BAR_COUNT).fill(null),
      lastError: null,
      note: null,
    });
    const bidsOnly = marketHealthRow(
      {
        market: 'csfloat',
        cadenceMs: MINUTE,
        lastSuccessAt: null,
        records: [],
        book: stats.get('csfloat'),
      },
      NOW,
    );
    assert.equal(bidsOnly.listingsCount, null);
    assert.equal(bidsOnly.freshnessCoveragePct, 100);
  });

  test('unknown values are null, never 0', () => {
    const row = marketHealthRow(
      { market: 'buff163', cadenceMs: MINUTE, lastSuccessAt: null, records: [], book: undefined },
      NOW,
    );
    assert.deepEqual(
      [row.status, row.lastEventAt, row.listingsCount, row.freshnessCoveragePct],
      ['stale', null, null, null],
    );
  });
});

describe('lastError and note (extensions)', () => {
  test('the newest failed or partly failed fetch in 24 hours, with its kind and detail', () => {
    const failed = {
      ...record(NOW - 2 * MINUTE, false),
      detail: 'skinport GET /v1/items: HTTP 503',
    };
    const partial = {
      ...record(NOW - MINUTE, true),
      failure: 'http_4xx' as const,
      detail: '1 of 2 requests failed',
    };
    const old = { ...record(NOW - 25 * 60 * MINUTE, false), failure: 'timeout' as const };
    const ok = record(NOW - 30_000, true);
    assert.deepEqual(lastError([failed, partial, old, ok], NOW), {
      at: new Date(NOW - MINUTE).toISOString(),
      kind: 'http_4xx',
      detail: '1 of 2 requests failed',
    });
    assert.equal(lastError([old, ok], NOW), null, 'failures older than the window are gone');
  });

  test('a market that is not polled says why', () => {
    const input = {
      market: 'skindeck' as const,
      cadenceMs: MINUTE,
      lastSuccessAt: null,
      records: [],
      book: undefined,
    };
    assert.equal(
      marketHealthRow({ ...input, note: 'no live connector (simulated only)' }, NOW).note,
      'no live connector (simulated only)',
    );
    assert.equal(marketHealthRow(input, NOW).note, null);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { latencyReport, SLO_LATENCY_MS } from './latency-stats.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');

function fetch(market: MarketId, startedAt: number, latency: number | null): FetchRecord {
  const ok = latency !== null;
  return {
    market,
    game: 'cs2',
    startedAt,
    fetchedAt: startedAt + 10,
    ingestedAt: ok ? startedAt + latency : null,
    ok,
    errorKind: ok ? null : 'retryable',
    observationCount: ok ? 5 : 0,
    rejectedCount: 0,
    failure: ok ? null : 'http_5xx',
    detail: null,
    unmappedCount: 0,
  };
}

describe('latencyReport', () => {
  test('avg, nearest-rank percentiles and rates per market', () => {
    const records = [
      ...Array.from({ length: 19 }, (_, index) =>
        fetch('skinport', NOW - 1000 * (index + 1), 100 * (index + 1)),
      ),
      fetch('skinport', NOW - 50_000, SLO_LATENCY_MS + 1),
      fetch('skinport', NOW - 60_000, null),
    ];
    const report = latencyReport(['skinport'], records, NOW);
    const row = report.markets[0]!;
    assert.equal(row.fetch_count, 21);
    assert.equal(row.avg_latency_ms, Math.round((19_000 + SLO_LATENCY_MS + 1) / 20));
    assert.equal(row.p95_latency_ms, 1900);
    assert.equal(row.p99_latency_ms, SLO_LATENCY_MS + 1);
    assert.equal(row.error_rate, 0.0476);
    assert.equal(row.slo_breach_rate, 0.0952);
    assert.equal(report.window_hours, 24);
    assert.equal(report.measured_at, '2026-11-01T12:00:00.000Z');
  });

  test('a latency of exactly the SLO is not a breach', () => {
    const row = latencyReport(['skinport'], [fetch('skinport', NOW - 1000, SLO_LATENCY_MS)], NOW)
      .markets[0]!;
    assert.equal(row.slo_breach_rate, 0);
  });

  test('records older than 24 hours or from other markets are ignored', () => {
    const report = latencyReport(
      ['skinport', 'buff163'],
      [
        fetch('skinport', NOW - DAY - 1, 100),
        fetch('skinport', NOW - DAY, 300),
        fetch('csfloat', NOW - 5, 1),
      ],
      NOW,
    );
    assert.equal(report.markets[0]!.fetch_count, 1);
    assert.equal(report.markets[0]!.avg_latency_ms, 300);
  });

  test('nulls when a market has no fetches or only failures', () => {
    const report = latencyReport(['skinport', 'buff163'], [fetch('buff163', NOW - 1, null)], NOW);
    assert.deepEqual(report.markets[0], {
      market: 'skinport',
      avg_latency_ms: null,
      p95_latency_ms: null,
      p99_latency_ms: null,
      fetch_count: 0,
      error_rate: null,
      slo_breach_rate: null,
      error_rates_by_kind: {},
      unmapped_rate: null,
    });
    assert.deepEqual(report.markets[1], {
      market: 'buff163',
      avg_latency_ms: null,
      p95_latency_ms: null,
      p99_latency_ms: null,
      fetch_count: 1,
      error_rate: 1,
      slo_breach_rate: 1,
      error_rates_by_kind: { http_5xx: 1 },
      unmapped_rate: null,
    });
  });

  test('failure kinds, partial failures of successful fetches, and unmapped names', () => {
    const partial = { ...fetch('skinport', NOW - 3000, 200), failure: 'http_4xx' as const };
    const timeout = { ...fetch('skinport', NOW - 2000, null), failure: 'timeout' as const };
    const mapped = {
      ...fetch('skinport', NOW - 1000, 100),
      observationCount: 40,
      unmappedCount: 3,
    };
    const row = latencyReport(['skinport'], [partial, timeout, mapped], NOW).markets[0]!;
    assert.equal(row.error_rate, 0.3333, 'only the whole failure counts as an error');
    assert.deepEqual(row.error_rates_by_kind, { http_4xx: 0.3333, timeout: 0.3333 });
    assert.equal(row.unmapped_rate, 0.0667, '3 of 45 observations');
  });
});

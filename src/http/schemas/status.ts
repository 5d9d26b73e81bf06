/** Response schemas of the status endpoints (snake_case) and market health (camelCase). */
import { Type } from '@sinclair/typebox';
import { FETCH_FAILURES } from '../../domain/fetch-failure.ts';
import { Nullable, StringEnum, Timestamp } from './common.ts';

const FreshnessStatus = StringEnum(['healthy', 'degraded', 'stale'] as const);

export const FreshnessReport = Type.Object({
  markets: Type.Array(
    Type.Object({
      market: Type.String(),
      delay_seconds: Nullable(Type.Integer({ description: 'Age of the last successful fetch.' })),
      last_update: Nullable(Timestamp()),
      status: FreshnessStatus,
    }),
  ),
  overall_status: FreshnessStatus,
  checked_at: Timestamp(),
});

export const MarketLatencyReport = Type.Object({
  markets: Type.Array(
    Type.Object({
      market: Type.String(),
      avg_latency_ms: Nullable(Type.Integer()),
      p95_latency_ms: Nullable(Type.Integer({ description: 'Nearest-rank percentile.' })),
      p99_latency_ms: Nullable(Type.Integer({ description: 'Nearest-rank percentile.' })),
      fetch_count: Type.Integer(),
      error_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      slo_breach_rate: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
      error_rates_by_kind: Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }), {
        description:
          'Extension: share of fetches whose failure (whole or partial) was of each kind ' +
          `(${FETCH_FAILURES.join(', ')}); kinds that did not occur are absent.`,
      }),
      unmapped_rate: Nullable(
        Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'Extension: share of observed items whose name is not in the catalog.',
        }),
      ),
    }),
  ),
  window_hours: Type.Integer(),
  measured_at: Timestamp(),
});

const HealthBar = Type.Unsafe<0 | 1 | 2 | null>({
  type: ['integer', 'null'],
  enum: [0, 1, 2, null],
  description: '2 live, 1 degraded, 0 down, null unknown.',
});

export const MarketHealthRows = Type.Array(
  Type.Object({
    id: Type.String(),
    status: StringEnum(['live', 'warn', 'stale'] as const),
    lastEventAt: Nullable(Timestamp()),
    listingsCount: Nullable(Type.Integer()),
    freshnessCoveragePct: Nullable(Type.Number({ minimum: 0, maximum: 100 })),
    healthBars: Type.Array(HealthBar, { minItems: 48, maxItems: 48 }),
    lastError: Nullable(
      Type.Object(
        {
          at: Timestamp(),
          kind: StringEnum(FETCH_FAILURES),
          detail: Nullable(Type.String()),
        },
        { description: 'Extension: the newest failed (or partly failed) fetch in 24 hours.' },
      ),
    ),
    note: Nullable(
      Type.String({ description: 'Extension: why the market is not polled, when it is not.' }),
    ),
  }),
);

export const ItemsAllRows = Type.Array(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    latestPrices: Type.Array(
      Type.Object({
        market: Type.String(),
        effectiveUsdCents: Type.Integer(),
        fetchedAt: Timestamp(),
        originalCurrency: Type.String(),
      }),
    ),
    priceAggregates: Nullable(
      Type.Object({
        minPrice: Type.Integer(),
        maxPrice: Type.Integer(),
        avgPrice: Type.Integer(),
        medianPrice: Type.Integer(),
        stdDev: Type.Number(),
        updatedAt: Timestamp(),
      }),
    ),
  }),
  { maxItems: 50_000 },
);

/**
 * Ingest metrics, counted where the fetches happen (role `ingest`, or the HTTP thread of role
 * `all` from its worker's messages): fetches by result, failures by kind, fetch and
 * fetch-to-commit latency, observations and rejections by reason, per market and game. Records
 * loaded from the store (boot, API processes) are never counted: they were counted where made.
 */
import type { Counter, Histogram, Registry } from 'prom-client';
import { Counter as CounterMetric, Histogram as HistogramMetric } from 'prom-client';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import type { RejectionTally } from '../ingest/rejections.ts';

/** Seconds: a cached bulk list answers in tens of ms, a full-catalog poll takes seconds. */
export const FETCH_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

const MARKET_GAME = ['market', 'game'] as const;
type MarketGame = (typeof MARKET_GAME)[number];

export class IngestMetrics {
  private readonly fetches: Counter<MarketGame | 'result'>;
  private readonly failures: Counter<MarketGame | 'kind'>;
  private readonly fetchSeconds: Histogram<MarketGame>;
  private readonly commitSeconds: Histogram<MarketGame>;
  private readonly observations: Counter<MarketGame>;
  private readonly rejections: Counter<MarketGame | 'reason'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.fetches = new CounterMetric({
      name: 'pricing_fetches_total',
      help: 'Market polls by result: ok (data committed, possibly with some requests lost) or failed.',
      labelNames: [...MARKET_GAME, 'result'],
      registers,
    });
    this.failures = new CounterMetric({
      name: 'pricing_fetch_failures_total',
      help: 'Market polls that failed, whole or in part, by failure kind (timeout, rate_limited, http_5xx, ...).',
      labelNames: [...MARKET_GAME, 'kind'],
      registers,
    });
    this.fetchSeconds = new HistogramMetric({
      name: 'pricing_fetch_duration_seconds',
      help: "Time from the start of a poll's upstream requests until the last answer arrived (every poll).",
      labelNames: [...MARKET_GAME],
      buckets: FETCH_BUCKETS,
      registers,
    });
    this.commitSeconds = new HistogramMetric({
      name: 'pricing_fetch_to_commit_seconds',
      help: "Time from the start of a poll's upstream requests until its data was committed (successful polls).",
      labelNames: [...MARKET_GAME],
      buckets: FETCH_BUCKETS,
      registers,
    });
    this.observations = new CounterMetric({
      name: 'pricing_ingest_observations_total',
      help: 'Observations (quotes, sales, listings, statistics) parsed from market answers, before rejection.',
      labelNames: [...MARKET_GAME],
      registers,
    });
    this.rejections = new CounterMetric({
      name: 'pricing_ingest_rejections_total',
      help: 'Observations or rows refused at ingest, by reason (malformed, negative_price, unknown_item, ...).',
      labelNames: [...MARKET_GAME, 'reason'],
      registers,
    });
  }

  noteFetch(record: FetchRecord): void {
    const where = { market: record.market, game: record.game };
    this.fetches.inc({ ...where, result: record.ok ? 'ok' : 'failed' });
    if (record.failure !== null) this.failures.inc({ ...where, kind: record.failure });
    this.fetchSeconds.observe(where, seconds(record.fetchedAt - record.startedAt));
    if (record.ok && record.ingestedAt !== null) {
      this.commitSeconds.observe(where, seconds(record.ingestedAt - record.startedAt));
    }
    if (record.observationCount > 0) this.observations.inc(where, record.observationCount);
  }

  noteRejections(market: MarketId, game: Game, tally: RejectionTally): void {
    for (const [reason, count] of Object.entries(tally)) {
      if (count > 0) this.rejections.inc({ market, game, reason }, count);
    }
  }

  /** One finished cycle, where the runner runs in this thread (role `ingest`). */
  noteCycle(record: FetchRecord, tally: RejectionTally): void {
    this.noteFetch(record);
    this.noteRejections(record.market, record.game, tally);
  }
}

function seconds(ms: number): number {
  return Math.max(0, ms) / 1000;
}

/**
 * The process's metrics when `metricsPort` is set (otherwise null: nothing is measured and no
 * hook is installed). One registry per process: Node's process metrics, the HTTP metrics
 * (roles `all`, `api`), the ingest metrics (roles `all`, `ingest`) and the quote ages of the
 * book (roles `all`, `api`), served by the operator listener (http/operator-server.ts).
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Book } from '../book/book.ts';
import type { ServeConfig } from '../config.ts';
import type { Clock } from '../domain/clock.ts';
import { HttpMetrics } from '../metrics/http-metrics.ts';
import { IngestMetrics } from '../metrics/ingest-metrics.ts';
import { METRICS_PATH, startOperatorServer } from '../http/operator-server.ts';
import { registerQuoteAgeMetrics } from '../metrics/quote-metrics.ts';
import { watchThreadHolds } from '../metrics/thread-hold.ts';

export type MetricsConfig = Pick<
  ServeConfig,
  'role' | 'metricsPort' | 'metricsHost' | 'metricsToken'
>;

/** Each group registers on first use, so a role exposes only the series it can fill. */
export interface ServiceMetrics {
  registry: Registry;
  http(): HttpMetrics;
  ingest(): IngestMetrics;
  /** Adds the quote-age gauges of this book. */
  watchBook(book: Book, clock: Clock): void;
  /** Starts the operator listener; resolves with the metrics URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The event-loop monitor's timer, ms: `nodejs_eventloop_lag_max_seconds` is then the longest
 * stall since the previous scrape to within this (prom-client's default, 10 ms, hides the
 * 20 ms read budget's breaches). 500 timer turns a second cost well under 1% of a core.
 */
export const EVENT_LOOP_RESOLUTION_MS = 2;

export function createServiceMetrics(config: MetricsConfig): ServiceMetrics | null {
  const port = config.metricsPort;
  if (port === undefined) return null;
  const registry = new Registry();
  registry.setDefaultLabels({ role: config.role });
  collectDefaultMetrics({
    register: registry,
    eventLoopMonitoringPrecision: EVENT_LOOP_RESOLUTION_MS,
  });
  const stopHoldWatch = watchThreadHolds(registry, EVENT_LOOP_RESOLUTION_MS);
  let close: () => Promise<void> = async () => undefined;
  let http: HttpMetrics | null = null;
  let ingest: IngestMetrics | null = null;
  return {
    registry,
    http: () => (http ??= new HttpMetrics(registry)),
    ingest: () => (ingest ??= new IngestMetrics(registry)),
    watchBook: (book, clock) => registerQuoteAgeMetrics(registry, book, clock),
    async listen() {
      const server = await startOperatorServer({
        registry,
        port,
        host: config.metricsHost,
        token: config.metricsToken ?? null,
      });
      close = () => server.close();
      return `${server.url}${METRICS_PATH}`;
    },
    close: () => (stopHoldWatch?.(), close()),
  };
}

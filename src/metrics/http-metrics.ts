/**
 * HTTP metrics: request latency per route pattern (never the raw URL), method and status class,
 * and the quota refusals per plan and window (never per key or account). Each route resolves
 * its series once per (method, status class), so timing a request costs one array lookup and
 * one histogram observe, with no allocation.
 */
import type { Counter, Registry } from 'prom-client';
import { Counter as CounterMetric } from 'prom-client';
import { PLANS, type Plan } from '../domain/plans.ts';
import { SeriesHistogram, type HistogramSeries } from './series-histogram.ts';

/** Every request that matched no route (404, 405, malformed URLs) shares this route label. */
export const UNMATCHED_ROUTE = 'unmatched';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** Seconds: from well under a millisecond (cached reads) to the 30 s request timeout. */
export const HTTP_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

export type QuotaWindow = 'minute' | 'month';

type RequestLabel = 'route' | 'method' | 'status_class';

/** The latency series of one route pattern, resolved per (method, status class) on first use. */
export class RouteTimer {
  private readonly byMethod = new Map<string, (HistogramSeries | undefined)[]>();

  constructor(
    private readonly histogram: SeriesHistogram<RequestLabel>,
    readonly route: string,
  ) {}

  observe(method: string, statusCode: number, seconds: number): void {
    let row = this.byMethod.get(method);
    if (row === undefined) {
      row = new Array<HistogramSeries | undefined>(STATUS_CLASSES.length);
      this.byMethod.set(method, row);
    }
    const index = Math.min(4, Math.max(0, Math.floor(statusCode / 100) - 1));
    let series = row[index];
    if (series === undefined) {
      const labels = { route: this.route, method, status_class: STATUS_CLASSES[index]! };
      series = row[index] = this.histogram.labels(labels);
    }
    series.observe(seconds);
  }
}

export class HttpMetrics {
  private readonly duration: SeriesHistogram<RequestLabel>;
  private readonly refusals: Record<Plan, Record<QuotaWindow, Counter.Internal>>;
  private readonly healthRefusals: Counter;
  private readonly timers = new Map<string, RouteTimer>();

  constructor(registry: Registry) {
    this.duration = new SeriesHistogram({
      name: 'pricing_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response, by route pattern, method and status class.',
      labelNames: ['route', 'method', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    });
    const quota = new CounterMetric({
      name: 'pricing_quota_refusals_total',
      help: 'Key-gated requests refused with 429 by a quota window (minute or month), by the plan of the key.',
      labelNames: ['plan', 'window'],
      registers: [registry],
    });
    const byWindow = (plan: Plan) => {
      for (const window of ['minute', 'month']) quota.inc({ plan, window }, 0);
      return { minute: quota.labels(plan, 'minute'), month: quota.labels(plan, 'month') };
    };
    this.refusals = Object.fromEntries(PLANS.map((plan) => [plan, byWindow(plan)])) as Record<
      Plan,
      Record<QuotaWindow, Counter.Internal>
    >;
    this.healthRefusals = new CounterMetric({
      name: 'pricing_health_rate_limit_refusals_total',
      help: 'Keyless market health requests refused with 429 by the per-IP limit.',
      registers: [registry],
    });
  }

  /** The timer of one route pattern (one per pattern, shared by its methods). */
  timerFor(route: string): RouteTimer {
    let timer = this.timers.get(route);
    if (!timer) this.timers.set(route, (timer = new RouteTimer(this.duration, route)));
    return timer;
  }

  quotaRefused(plan: Plan, window: QuotaWindow): void {
    this.refusals[plan][window].inc();
  }

  healthRefused(): void {
    this.healthRefusals.inc();
  }
}

/**
 * A histogram for the request path, exported through a prom-client registry like any metric
 * (same `_bucket` / `_sum` / `_count` series). Each labelled series is resolved once and then
 * observes into preallocated arrays: a bucket search and three additions, about 50 ns, where
 * prom-client's Histogram rebuilds and hashes its label set on every observe (1.5–3 µs here).
 */
import type { Metric, Registry } from 'prom-client';

export interface SeriesHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds, ascending; `+Inf` is implied. */
  buckets: readonly number[];
  registers: Registry[];
}

export class HistogramSeries {
  /** Per bucket (the last is +Inf), not cumulative. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: Float64Array,
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const { bounds } = this;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index += 1;
    this.counts[index]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class SeriesHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;
  private readonly labelNames: readonly L[];
  private readonly bounds: Float64Array;
  private readonly series = new Map<string, HistogramSeries>();

  constructor(options: SeriesHistogramOptions<L>) {
    this.name = options.name;
    this.help = options.help;
    this.labelNames = options.labelNames;
    this.bounds = Float64Array.from(options.buckets);
    for (const registry of options.registers) {
      registry.registerMetric(this as unknown as Metric);
    }
  }

  /** The series of one label set, created on first use. */
  labels(values: Readonly<Record<L, string>>): HistogramSeries {
    const key = this.labelNames.map((name) => values[name]).join('\u0000');
    let held = this.series.get(key);
    if (!held) {
      const labels = Object.fromEntries(this.labelNames.map((name) => [name, values[name]]));
      this.series.set(key, (held = new HistogramSeries(labels, this.bounds)));
    }
    return held;
  }

  /** What the registry serialises (prom-client's metric contract). */
  async get() {
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) values.push(...this.exported(series));
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }

  reset(): void {
    this.series.clear();
  }

  private exported(series: HistogramSeries): ExportedValue[] {
    const bucket = `${this.name}_bucket`;
    const values: ExportedValue[] = [];
    let cumulative = 0;
    for (let index = 0; index <= this.bounds.length; index += 1) {
      cumulative += series.counts[index]!;
      const le = index < this.bounds.length ? this.bounds[index]! : '+Inf';
      values.push({ labels: { ...series.labels, le }, value: cumulative, metricName: bucket });
    }
    values.push({
      labels: { ...series.labels },
      value: series.sum,
      metricName: `${this.name}_sum`,
    });
    values.push({
      labels: { ...series.labels },
      value: series.count,
      metricName: `${this.name}_count`,
    });
    return values;
  }
}

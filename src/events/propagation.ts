/**
 * Change propagation delay: the time from the start of publish() to the subscriber's handler,
 * one probe event at a time (an idle bus, not a loaded one). Used by the bus tests and the bench.
 */
import { randomBytes } from 'node:crypto';
import type { ChangeBus, ChangeEvent } from './change-bus.ts';
import type { IngestBatch } from '../domain/quote.ts';
import { nearestRank } from '../pricing/stats.ts';

export interface PropagationStats {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

export interface PropagationOptions {
  /** Where events are received; default the publishing bus itself. */
  subscriber?: ChangeBus;
  /** The batch every probe carries; default an empty one. */
  batch?: IngestBatch;
  /** Per-probe limit before the measurement fails. */
  timeoutMs?: number;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export async function measurePropagation(
  bus: ChangeBus,
  count: number,
  options: PropagationOptions = {},
): Promise<PropagationStats> {
  const run = `probe:${randomBytes(4).toString('hex')}`;
  const batch = options.batch ?? { sides: [], sales: [], listings: [] };
  const timeoutMs = options.timeoutMs ?? 5_000;
  const waiting = new Map<string, () => void>();
  const unsubscribe = (options.subscriber ?? bus).subscribe((event) => {
    waiting.get(event.origin)?.();
  });
  const delays: number[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const event: ChangeEvent = { game: 'cs2', batch, origin: `${run}:${i}` };
      const arrived = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`probe ${i} not received`)), timeoutMs);
        waiting.set(event.origin, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const started = performance.now();
      await bus.publish(event);
      await arrived;
      delays.push(performance.now() - started);
      waiting.delete(event.origin);
    }
  } finally {
    unsubscribe();
  }
  const sorted = [...delays].sort((a, b) => a - b);
  const sum = sorted.reduce((total, ms) => total + ms, 0);
  return {
    count,
    p50Ms: round(nearestRank(sorted, 50) ?? 0),
    p99Ms: round(nearestRank(sorted, 99) ?? 0),
    maxMs: round(sorted[sorted.length - 1] ?? 0),
    meanMs: round(count > 0 ? sum / count : 0),
  };
}

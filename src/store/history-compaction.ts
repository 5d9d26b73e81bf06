/**
 * History retention: tiered (10-minute buckets kept 90 days, hourly 2 years, daily forever by
 * default; configurable per tier) and enforced by a compaction pass that deletes expired
 * buckets through the HistoryStore port in small steps (about 5,000 rows per transaction),
 * yielding to the event loop between steps so reads and ingest never wait long behind it.
 * A bucket is expired once it ENDS at or before `now − keep`, so every tier keeps at least
 * its window.
 */
import { DAY, type Clock } from '../domain/clock.ts';
import { TIERS, type Tier } from '../pricing/rollup-buckets.ts';
import type { HistoryStore } from './history-store.ts';

/** Milliseconds each tier is kept; null keeps it forever. */
export type RetentionPolicy = Readonly<Record<Tier, number | null>>;

export const DEFAULT_RETENTION: RetentionPolicy = {
  '10m': 90 * DAY,
  '1h': 730 * DAY,
  '1d': null,
};

export const DEFAULT_ROWS_PER_STEP = 5_000;

export interface CompactionOptions {
  /** Overrides per tier, e.g. `{ '10m': 30 * DAY }`. */
  retention?: Partial<RetentionPolicy>;
  rowsPerStep?: number;
  /** Checked between steps: a pass stops early once it returns true. */
  stopped?: () => boolean;
}

export type CompactionResult = Record<Tier, number>;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function retentionPolicy(overrides: Partial<RetentionPolicy> = {}): RetentionPolicy {
  return { ...DEFAULT_RETENTION, ...overrides };
}

/** One retention pass over every tier; returns the buckets deleted per tier. */
export async function compactHistory(
  store: Pick<HistoryStore, 'deleteRollupsBefore'>,
  now: number,
  options: CompactionOptions = {},
): Promise<CompactionResult> {
  const policy = retentionPolicy(options.retention);
  const maxRows = options.rowsPerStep ?? DEFAULT_ROWS_PER_STEP;
  const deleted: CompactionResult = { '10m': 0, '1h': 0, '1d': 0 };
  for (const tier of TIERS) {
    const keep = policy[tier];
    if (keep === null) continue;
    let cursor: string | null = null;
    do {
      if (options.stopped?.()) return deleted;
      const step = await store.deleteRollupsBefore(tier, now - keep, { cursor, maxRows });
      deleted[tier] += step.deleted;
      cursor = step.cursor;
      await yieldToEventLoop();
    } while (cursor !== null);
  }
  return deleted;
}

export interface HistoryCompactionOptions extends Omit<CompactionOptions, 'stopped'> {
  store: Pick<HistoryStore, 'deleteRollupsBefore'>;
  clock: Clock;
  /** Time between the end of one pass and the start of the next (the first runs after one). */
  intervalMs: number;
  onPass?: (result: CompactionResult) => void;
  onError?: (error: unknown) => void;
}

export interface HistoryCompaction {
  /** Stops scheduling; resolves once a pass in progress has stopped at its next step. */
  stop(): Promise<void>;
}

/** Runs compactHistory every `intervalMs` until stopped (the timer does not hold the process). */
export function startHistoryCompaction(options: HistoryCompactionOptions): HistoryCompaction {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, options.intervalMs);
    timer.unref();
  };

  const pass = async () => {
    try {
      const result = await compactHistory(options.store, options.clock.now(), {
        ...options,
        stopped: () => stopped,
      });
      options.onPass?.(result);
    } catch (error) {
      options.onError?.(error);
    }
  };

  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * History retention: tiered (10-minute buckets kept 45 days, hourly 180 days, the longest range
 * hourly reads serve, daily forever by default; configurable per tier) and enforced by a compaction pass that deletes expired
 * buckets through the HistoryStore port in small steps (about 5,000 rows per transaction),
 * yielding to the event loop between steps so reads and ingest never wait long behind it.
 * A bucket is expired once it ENDS at or before `now − keep`, so every tier keeps at least
 * its window. Where the store can (packBefore), the same pass then packs the settled periods
 * into the store's compact form.
 */
import { DAY, HOUR, type Clock } from '../domain/clock.ts';
import { TIERS, type Tier } from '../pricing/rollup-buckets.ts';
import type { HistoryStore } from './history-store.ts';

/** Milliseconds each tier is kept; null keeps it forever. */
export type RetentionPolicy = Readonly<Record<Tier, number | null>>;

export const DEFAULT_RETENTION: RetentionPolicy = {
  '10m': 45 * DAY,
  '1h': 180 * DAY,
  '1d': null,
};

/**
 * How long after it ends a bucket is settled (live ingest no longer writes it), so the pass
 * may pack it; null leaves a tier unpacked.
 */
export type SettlePolicy = Readonly<Record<Tier, number | null>>;

export const DEFAULT_SETTLE_AFTER: SettlePolicy = {
  '10m': HOUR,
  '1h': DAY,
  '1d': 7 * DAY,
};

export const DEFAULT_ROWS_PER_STEP = 5_000;

export interface CompactionOptions {
  /** Overrides per tier, e.g. `{ '10m': 30 * DAY }`. */
  retention?: Partial<RetentionPolicy>;
  settleAfter?: Partial<SettlePolicy>;
  rowsPerStep?: number;
  /** Checked between steps: a pass stops early once it returns true. */
  stopped?: () => boolean;
}

export interface CompactionResult {
  /** Expired rows deleted, per tier. */
  expired: Record<Tier, number>;
  /** Buckets packed, per tier. */
  packed: Record<Tier, number>;
}

type UpkeepStore = Pick<HistoryStore, 'deleteRollupsBefore' | 'packBefore'>;
type StepFn = NonNullable<HistoryStore['packBefore']>;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function retentionPolicy(overrides: Partial<RetentionPolicy> = {}): RetentionPolicy {
  return { ...DEFAULT_RETENTION, ...overrides };
}

/** Runs steps of one pass until it completes (true) or is stopped (false); adds up `deleted`. */
async function runPass(
  step: StepFn,
  tier: Tier,
  beforeMs: number,
  maxRows: number,
  count: Record<Tier, number>,
  stopped: () => boolean,
): Promise<boolean> {
  let cursor: string | null = null;
  do {
    if (stopped()) return false;
    const result = await step(tier, beforeMs, { cursor, maxRows });
    count[tier] += result.deleted;
    cursor = result.cursor;
    await yieldToEventLoop();
  } while (cursor !== null);
  return true;
}

/** One upkeep pass over every tier: retention, then packing; returns the buckets each touched. */
export async function compactHistory(
  store: UpkeepStore,
  now: number,
  options: CompactionOptions = {},
): Promise<CompactionResult> {
  const policy = retentionPolicy(options.retention);
  const settle = { ...DEFAULT_SETTLE_AFTER, ...options.settleAfter };
  const maxRows = options.rowsPerStep ?? DEFAULT_ROWS_PER_STEP;
  const stopped = options.stopped ?? (() => false);
  const result: CompactionResult = {
    expired: { '10m': 0, '1h': 0, '1d': 0 },
    packed: { '10m': 0, '1h': 0, '1d': 0 },
  };
  const expire = store.deleteRollupsBefore.bind(store);
  const pack = store.packBefore?.bind(store);
  for (const tier of TIERS) {
    const keep = policy[tier];
    if (
      keep !== null &&
      !(await runPass(expire, tier, now - keep, maxRows, result.expired, stopped))
    ) {
      return result;
    }
    const settleAfter = settle[tier];
    if (!pack || settleAfter === null) continue;
    if (!(await runPass(pack, tier, now - settleAfter, maxRows, result.packed, stopped))) {
      return result;
    }
  }
  return result;
}

export interface HistoryCompactionOptions extends Omit<CompactionOptions, 'stopped'> {
  store: UpkeepStore;
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

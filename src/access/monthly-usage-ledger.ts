/**
 * One process's monthly usage ledger. Limiters record every request they admit under a monthly
 * cap (a counter increment in memory, no I/O); every `flushEveryMs` the counts gathered since the
 * last write are added to the store in one transaction, so the stored total of an account's month
 * is exact across processes, minus at most one flush interval of counts lost when a process dies
 * without a clean shutdown. `usedSoFar` (stored total plus this process's unwritten counts) is
 * what a limiter restarts an account's month from when its counter is missing (Redis restarted,
 * or this process just started). Store reads and writes run one at a time, so a count is never
 * both in the store and still pending.
 */
import type { ResilienceLogger } from './resilient-rate-limiter.ts';
import type { MonthlyUsage, MonthlyUsageDelta, MonthlyUsageStore } from './monthly-usage.ts';

/** What a limiter needs from the ledger. */
export interface MonthLedger {
  /** Counts one admitted request of `accountId` in `month` (yyyymm). */
  record(accountId: string, month: number): void;
  /** The stored total plus this process's counts not yet written. */
  usedSoFar(accountId: string, month: number): Promise<number>;
}

export interface MonthlyUsageLedger extends MonthLedger {
  /** Writes the pending counts now; false when the store refused (they stay pending). */
  flush(): Promise<boolean>;
  /** Starts the periodic flush. */
  start(): void;
  /** Stops the periodic flush and writes what is pending. */
  close(): Promise<void>;
  /** Told the stored totals after each write (the Redis limiter raises its counters to them). */
  onWritten(listener: (totals: MonthlyUsage[]) => Promise<void>): void;
}

export interface MonthlyUsageLedgerOptions {
  store: MonthlyUsageStore;
  flushEveryMs: number;
  logger: ResilienceLogger;
}

export const USAGE_WRITE_FAILED = 'monthly usage not written: kept in memory, retrying';
export const USAGE_WRITE_RECOVERED = 'monthly usage written again';

const keyOf = (accountId: string, month: number) => `${month}\u0000${accountId}`;

class PendingCounts {
  private counts = new Map<string, MonthlyUsageDelta>();

  add(accountId: string, month: number, count: number): void {
    const key = keyOf(accountId, month);
    const seen = this.counts.get(key);
    this.counts.set(key, { accountId, month, count: (seen?.count ?? 0) + count });
  }

  of(accountId: string, month: number): number {
    return this.counts.get(keyOf(accountId, month))?.count ?? 0;
  }

  /** Empties the pending counts and returns them. */
  take(): MonthlyUsageDelta[] {
    const taken = [...this.counts.values()];
    this.counts = new Map();
    return taken;
  }

  giveBack(deltas: readonly MonthlyUsageDelta[]): void {
    for (const delta of deltas) this.add(delta.accountId, delta.month, delta.count);
  }
}

export function createMonthlyUsageLedger(options: MonthlyUsageLedgerOptions): MonthlyUsageLedger {
  const { store, logger } = options;
  const pending = new PendingCounts();
  const reads = new Map<string, Promise<number>>();
  let queue: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | null = null;
  let failing = false;
  let written = async (_: MonthlyUsage[]) => {};

  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };

  const write = async (): Promise<boolean> => {
    const deltas = pending.take();
    if (deltas.length === 0) return true;
    let totals: MonthlyUsage[];
    try {
      totals = await store.addMonthlyUsage(deltas);
    } catch (error) {
      pending.giveBack(deltas);
      if (!failing) logger.error({ err: error }, USAGE_WRITE_FAILED);
      failing = true;
      return false;
    }
    if (failing) logger.info({}, USAGE_WRITE_RECOVERED);
    failing = false;
    await written(totals).catch(() => {});
    return true;
  };

  const readUsed = (accountId: string, month: number) =>
    oneAtATime(
      async () => (await store.monthlyUsage(accountId, month)) + pending.of(accountId, month),
    );

  return {
    record(accountId, month) {
      pending.add(accountId, month, 1);
    },
    usedSoFar(accountId, month) {
      const key = keyOf(accountId, month);
      let read = reads.get(key);
      if (!read) {
        read = readUsed(accountId, month).finally(() => reads.delete(key));
        reads.set(key, read);
      }
      return read;
    },
    flush: () => oneAtATime(write),
    start() {
      if (timer) return;
      timer = setInterval(() => void oneAtATime(write), options.flushEveryMs);
      timer.unref();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      await oneAtATime(write);
    },
    onWritten(listener) {
      written = listener;
    },
  };
}

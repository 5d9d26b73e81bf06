/**
 * Durable monthly quota usage: how many requests each account was admitted in each UTC calendar
 * month, kept in the access store so a restart of Redis (or of a single process) does not refund
 * the month. Months are numbered `yyyymm` (202611), as in the Redis keys. The store only adds:
 * every process writes its own deltas, so totals stay exact across processes.
 */

export interface MonthlyUsageDelta {
  accountId: string;
  /** `yyyymm`, UTC. */
  month: number;
  /** Requests admitted since the last write (a positive integer). */
  count: number;
}

export interface MonthlyUsage {
  accountId: string;
  month: number;
  /** The stored total after the write. */
  used: number;
}

export interface MonthlyUsageStore {
  /**
   * Adds every delta to its (account, month) total in one transaction and returns the new
   * totals, one per (account, month), in the order of first appearance. Does not move version().
   */
  addMonthlyUsage(deltas: readonly MonthlyUsageDelta[]): Promise<MonthlyUsage[]>;
  /** The stored total of one account's month; 0 when nothing was recorded. */
  monthlyUsage(accountId: string, month: number): Promise<number>;
}

const usageKey = (accountId: string, month: number) => `${month}\u0000${accountId}`;

/**
 * Deltas merged per (account, month) and sorted by account then month: one row per total, and
 * one lock order for every writer (concurrent writers never deadlock on each other's rows).
 * Rejects a delta that is not a positive safe integer or names an impossible month.
 */
export function mergeDeltas(deltas: readonly MonthlyUsageDelta[]): MonthlyUsageDelta[] {
  const merged = new Map<string, MonthlyUsageDelta>();
  for (const delta of deltas) {
    assertDelta(delta);
    const key = usageKey(delta.accountId, delta.month);
    const seen = merged.get(key);
    merged.set(key, { ...delta, count: (seen?.count ?? 0) + delta.count });
  }
  return [...merged.values()].sort((a, b) =>
    a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : a.month - b.month,
  );
}

/** Returns the totals in the order the deltas first named each (account, month). */
export function inDeltaOrder(
  deltas: readonly MonthlyUsageDelta[],
  totals: readonly MonthlyUsage[],
): MonthlyUsage[] {
  const byKey = new Map(totals.map((total) => [usageKey(total.accountId, total.month), total]));
  const ordered = new Map<string, MonthlyUsage>();
  for (const { accountId, month } of deltas) {
    const key = usageKey(accountId, month);
    const total = byKey.get(key);
    if (total && !ordered.has(key)) ordered.set(key, total);
  }
  return [...ordered.values()];
}

export function isMonthNumber(month: number): boolean {
  const calendarMonth = month % 100;
  return (
    Number.isInteger(month) &&
    month >= 100001 &&
    month <= 999912 &&
    calendarMonth >= 1 &&
    calendarMonth <= 12
  );
}

function assertDelta(delta: MonthlyUsageDelta): void {
  if (!isMonthNumber(delta.month)) throw new RangeError(`not a yyyymm month: ${delta.month}`);
  if (!Number.isSafeInteger(delta.count) || delta.count < 1) {
    throw new RangeError(`usage delta must be a positive integer, got ${delta.count}`);
  }
}

/**
 * Test helper: a MonthLedger held in memory. `stored` plays the store's totals, `recorded` the
 * counts a limiter recorded; `usedSoFar` answers stored + recorded, or fails while `failing`.
 */
import type { MonthLedger } from './monthly-usage-ledger.ts';

export interface FakeLedger extends MonthLedger {
  stored: Map<string, number>;
  recorded: Map<string, number>;
  reads: number;
  failing: boolean;
}

export const ledgerKey = (accountId: string, month: number) => `${accountId}@${month}`;

export function fakeLedger(stored: Record<string, number> = {}): FakeLedger {
  const ledger: FakeLedger = {
    stored: new Map(Object.entries(stored)),
    recorded: new Map(),
    reads: 0,
    failing: false,
    record(accountId, month) {
      const key = ledgerKey(accountId, month);
      ledger.recorded.set(key, (ledger.recorded.get(key) ?? 0) + 1);
    },
    async usedSoFar(accountId, month) {
      ledger.reads += 1;
      await Promise.resolve();
      if (ledger.failing) throw new Error('access store unreachable');
      const key = ledgerKey(accountId, month);
      return (ledger.stored.get(key) ?? 0) + (ledger.recorded.get(key) ?? 0);
    },
  };
  return ledger;
}

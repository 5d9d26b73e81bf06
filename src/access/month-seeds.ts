/**
 * Starts an in-process limiter's month counters from the monthly usage ledger, so restarting a
 * single-process server does not refund the month: the first request of an account's month in
 * this process waits for one ledger read (the stored total plus unwritten counts) and the
 * counter is raised to it. Concurrent first requests share the read. When the read fails the
 * request is decided on the local count and the read is retried on a request `SEED_RETRY_MS`
 * later; the local count is part of the ledger's total, so a late seed never counts twice.
 */
import type { MonthLedger } from './monthly-usage-ledger.ts';
import { monthNumber, monthWindow } from './quota-windows.ts';
import type { WindowBounds } from './quota-windows.ts';

export const SEED_RETRY_MS = 1_000;

export type ApplySeed = (accountId: string, month: WindowBounds, used: number) => void;

export class MonthSeeds {
  private monthStart = -Infinity;
  private readonly seeded = new Set<string>();
  private readonly retryAt = new Map<string, number>();
  private readonly reading = new Map<string, Promise<void>>();

  constructor(
    private readonly ledger: MonthLedger,
    private readonly apply: ApplySeed,
  ) {}

  async ensure(accountId: string, now: number): Promise<void> {
    const month = monthWindow(now);
    this.rollOver(month.start);
    if (this.seeded.has(accountId)) return;
    if (now < (this.retryAt.get(accountId) ?? -Infinity)) return;
    const key = `${month.start}:${accountId}`;
    let reading = this.reading.get(key);
    if (!reading) {
      reading = this.read(accountId, month, now).finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    await reading;
  }

  /** True when `ensure` has nothing to wait for: the account's month is seeded or on retry. */
  settled(accountId: string, monthStart: number, now: number): boolean {
    if (monthStart !== this.monthStart) return false;
    return this.seeded.has(accountId) || now < (this.retryAt.get(accountId) ?? -Infinity);
  }

  private async read(accountId: string, month: WindowBounds, now: number): Promise<void> {
    let used: number;
    try {
      used = await this.ledger.usedSoFar(accountId, monthNumber(now));
    } catch {
      if (month.start === this.monthStart) this.retryAt.set(accountId, now + SEED_RETRY_MS);
      return;
    }
    if (month.start !== this.monthStart) return;
    this.apply(accountId, month, used);
    this.seeded.add(accountId);
    this.retryAt.delete(accountId);
  }

  private rollOver(start: number): void {
    if (start <= this.monthStart) return;
    this.monthStart = start;
    this.seeded.clear();
    this.retryAt.clear();
  }
}

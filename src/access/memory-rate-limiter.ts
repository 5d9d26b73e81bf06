/**
 * In-process RateLimiter (the embedded default). Counters per account for the current UTC minute
 * and UTC month. A refused request spends nothing: a minute refusal leaves both windows alone,
 * and a month refusal does not spend the minute either. Counters from past windows are swept
 * when the minute (or month) rolls over, so memory holds only accounts seen this window.
 * With a `monthLedger` every admitted request under a monthly cap is recorded in it, and with
 * `seedMonths` each account's month starts from the ledger's total (month-seeds.ts).
 */
import type { QuotaDecision, QuotaLimits, RateLimiter, WindowState } from './rate-limiter.ts';
import { minuteWindow, monthNumber, monthWindow, resetSeconds } from './quota-windows.ts';
import { MonthSeeds } from './month-seeds.ts';
import type { MonthLedger } from './monthly-usage-ledger.ts';
import type { WindowBounds } from './quota-windows.ts';

interface Counter {
  start: number;
  count: number;
}

/** Counters for one kind of window, keyed by account id. */
class WindowCounters {
  private readonly counters = new Map<string, Counter>();
  private sweptFor = -Infinity;

  used(id: string, bounds: WindowBounds): number {
    this.sweep(bounds.start);
    const counter = this.counters.get(id);
    return counter?.start === bounds.start ? counter.count : 0;
  }

  spend(id: string, bounds: WindowBounds, used: number): void {
    this.counters.set(id, { start: bounds.start, count: used + 1 });
  }

  /** Lifts the counter of this window to at least `used`. */
  raise(id: string, bounds: WindowBounds, used: number): void {
    const current = this.used(id, bounds);
    this.counters.set(id, { start: bounds.start, count: Math.max(current, used) });
  }

  size(): number {
    return this.counters.size;
  }

  private sweep(currentStart: number): void {
    if (currentStart <= this.sweptFor) return;
    this.sweptFor = currentStart;
    for (const [id, counter] of this.counters) {
      if (counter.start < currentStart) this.counters.delete(id);
    }
  }
}

function windowState(limit: number, used: number, bounds: WindowBounds, now: number): WindowState {
  return {
    limit,
    remaining: Math.max(0, limit - used),
    resetSeconds: resetSeconds(bounds.end, now),
  };
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Counters currently held (minute + month), for tests and metrics. */
  trackedCounters(): number;
}

export interface MemoryRateLimiterOptions {
  /** Records every request admitted under a monthly cap. */
  monthLedger?: MonthLedger;
  /** Starts each account's month from the ledger's total (needs `monthLedger`). */
  seedMonths?: boolean;
}

export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const minutes = new WindowCounters();
  const months = new WindowCounters();
  const ledger = options.monthLedger;
  const seeds =
    ledger && options.seedMonths
      ? new MonthSeeds(ledger, (id, month, used) => months.raise(id, month, used))
      : null;

  const decide = (id: string, limits: QuotaLimits, now: number): QuotaDecision => {
    const minute = minuteWindow(now);
    const month = monthWindow(now);
    const minuteUsed = minutes.used(id, minute);
    const monthUsed = limits.monthly === null ? 0 : months.used(id, month);
    const monthState = (used: number) =>
      limits.monthly === null ? null : windowState(limits.monthly, used, month, now);

    if (minuteUsed >= limits.perMinute) {
      const minuteState = windowState(limits.perMinute, minuteUsed, minute, now);
      return refused('minute', minuteState, monthState(monthUsed), minuteState.resetSeconds);
    }
    if (limits.monthly !== null && monthUsed >= limits.monthly) {
      const refusedMonth = windowState(limits.monthly, monthUsed, month, now);
      const minuteState = windowState(limits.perMinute, minuteUsed, minute, now);
      return refused('month', minuteState, refusedMonth, refusedMonth.resetSeconds);
    }
    minutes.spend(id, minute, minuteUsed);
    if (limits.monthly !== null) months.spend(id, month, monthUsed);
    return {
      allowed: true,
      refusedBy: null,
      minute: windowState(limits.perMinute, minuteUsed + 1, minute, now),
      month: monthState(monthUsed + 1),
      retryAfterSeconds: null,
    };
  };

  return {
    async consume(accountId, limits, now) {
      if (limits.monthly === null) return decide(accountId, limits, now);
      await seeds?.ensure(accountId, now);
      const decision = decide(accountId, limits, now);
      if (decision.allowed) ledger?.record(accountId, monthNumber(now));
      return decision;
    },
    async close() {},
    trackedCounters: () => minutes.size() + months.size(),
  };
}

function refused(
  by: 'minute' | 'month',
  minute: WindowState,
  month: WindowState | null,
  retryAfterSeconds: number,
): QuotaDecision {
  return { allowed: false, refusedBy: by, minute, month, retryAfterSeconds };
}

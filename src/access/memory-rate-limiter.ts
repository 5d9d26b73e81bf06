/**
 * In-process RateLimiter (the embedded default). Counters per account for the current UTC minute
 * and UTC month. A refused request spends nothing: a minute refusal leaves both windows alone,
 * and a month refusal does not spend the minute either. Counters from past windows are swept
 * when the minute (or month) rolls over, so memory holds only accounts seen this window.
 * With a `monthLedger` every admitted request under a monthly cap is recorded in it, and with
 * `seedMonths` each account's month starts from the ledger's total (month-seeds.ts).
 */
import type { QuotaDecision, QuotaLimits, RateLimiter, WindowState } from './rate-limiter.ts';
import { monthNumber, monthWindow, resetSeconds } from './quota-windows.ts';
import { MINUTE } from '../domain/clock.ts';
import { MonthSeeds } from './month-seeds.ts';
import type { MonthLedger } from './monthly-usage-ledger.ts';
import type { WindowBounds } from './quota-windows.ts';

interface Counter {
  start: number;
  count: number;
}

/** Counters for one kind of window, keyed by account id; a counter is updated in place. */
class WindowCounters {
  private readonly counters = new Map<string, Counter>();
  private sweptFor = -Infinity;

  used(id: string, start: number): number {
    this.sweep(start);
    const counter = this.counters.get(id);
    return counter?.start === start ? counter.count : 0;
  }

  spend(id: string, start: number, used: number): void {
    this.set(id, start, used + 1);
  }

  /** Lifts the counter of this window to at least `used`. */
  raise(id: string, bounds: WindowBounds, used: number): void {
    this.set(id, bounds.start, Math.max(this.used(id, bounds.start), used));
  }

  size(): number {
    return this.counters.size;
  }

  private set(id: string, start: number, count: number): void {
    const counter = this.counters.get(id);
    if (counter === undefined) this.counters.set(id, { start, count });
    else {
      counter.start = start;
      counter.count = count;
    }
  }

  private sweep(currentStart: number): void {
    if (currentStart <= this.sweptFor) return;
    this.sweptFor = currentStart;
    for (const [id, counter] of this.counters) {
      if (counter.start < currentStart) this.counters.delete(id);
    }
  }
}

/** The UTC month around `now`, recomputed only when `now` leaves it. */
class MonthBounds implements WindowBounds {
  start = Number.NaN;
  end = Number.NaN;
  /** `yyyymm`, the ledger's month number. */
  number = 0;

  at(now: number): this {
    if (!(now >= this.start && now < this.end)) {
      const month = monthWindow(now);
      this.start = month.start;
      this.end = month.end;
      this.number = monthNumber(now);
    }
    return this;
  }
}

interface MutableDecision extends QuotaDecision {
  minute: WindowState;
}

function blankDecision(): MutableDecision {
  return {
    allowed: true,
    refusedBy: null,
    minute: { limit: 0, remaining: 0, resetSeconds: 1 },
    month: null,
    retryAfterSeconds: null,
  };
}

function fillWindow(
  state: WindowState,
  limit: number,
  used: number,
  end: number,
  now: number,
): WindowState {
  state.limit = limit;
  state.remaining = Math.max(0, limit - used);
  state.resetSeconds = resetSeconds(end, now);
  return state;
}

export interface MemoryRateLimiter extends RateLimiter {
  consumeNow(accountId: string, limits: QuotaLimits, now: number): QuotaDecision | null;
  /** Lifts the account's month at `now` to at least `used` (a figure learnt elsewhere). */
  raiseMonth(accountId: string, now: number, used: number): void;
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
  const month = new MonthBounds();
  const monthState: WindowState = { limit: 0, remaining: 0, resetSeconds: 1 };
  const reused = blankDecision();
  const ledger = options.monthLedger;
  const seeds =
    ledger && options.seedMonths
      ? new MonthSeeds(ledger, (id, bounds, used) => months.raise(id, bounds, used))
      : null;

  /** Decides into `out` (its `month` state object is `monthOut` when the plan has a cap). */
  const decide = (
    id: string,
    limits: QuotaLimits,
    now: number,
    out: MutableDecision,
    monthOut: WindowState,
  ): QuotaDecision => {
    const minuteStart = Math.floor(now / MINUTE) * MINUTE;
    const minuteEnd = minuteStart + MINUTE;
    const capped = limits.monthly !== null;
    if (capped) month.at(now);
    const minuteUsed = minutes.used(id, minuteStart);
    const monthUsed = capped ? months.used(id, month.start) : 0;
    const minuteRefused = minuteUsed >= limits.perMinute;
    const monthRefused = !minuteRefused && capped && monthUsed >= limits.monthly!;
    const allowed = !minuteRefused && !monthRefused;
    if (allowed) {
      minutes.spend(id, minuteStart, minuteUsed);
      if (capped) months.spend(id, month.start, monthUsed);
    }
    const spent = allowed ? 1 : 0;
    out.allowed = allowed;
    out.refusedBy = minuteRefused ? 'minute' : monthRefused ? 'month' : null;
    fillWindow(out.minute, limits.perMinute, minuteUsed + spent, minuteEnd, now);
    out.month = capped
      ? fillWindow(monthOut, limits.monthly!, monthUsed + spent, month.end, now)
      : null;
    out.retryAfterSeconds = minuteRefused
      ? out.minute.resetSeconds
      : monthRefused
        ? out.month!.resetSeconds
        : null;
    if (allowed && capped) ledger?.record(id, month.number);
    return out;
  };

  const fresh = (id: string, limits: QuotaLimits, now: number) =>
    decide(id, limits, now, blankDecision(), { limit: 0, remaining: 0, resetSeconds: 1 });

  return {
    async consume(accountId, limits, now) {
      if (limits.monthly !== null) await seeds?.ensure(accountId, now);
      return fresh(accountId, limits, now);
    },
    consumeNow(accountId, limits, now) {
      if (limits.monthly !== null && seeds && !seeds.settled(accountId, month.at(now).start, now))
        return null;
      return decide(accountId, limits, now, reused, monthState);
    },
    raiseMonth(accountId, now, used) {
      months.raise(accountId, month.at(now), used);
    },
    async close() {},
    trackedCounters: () => minutes.size() + months.size(),
  };
}

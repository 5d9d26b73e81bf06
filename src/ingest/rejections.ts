/**
 * Rejection accounting: a counter per (market, reason) for the status endpoints, and a sampled
 * warning log — at most `maxLinesPerMinute` lines per market per minute, the rest summarised.
 */
import { MINUTE } from '../domain/clock.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Rejection } from '../markets/market-adapter.ts';

export type RejectionReason = Rejection['reason'];

/** The slice of a pino logger this module needs. */
export interface WarnLogger {
  warn(obj: object, msg: string): void;
}

export interface RejectionEvent extends Rejection {
  market: MarketId;
  item?: string;
}

/** Rejections of one cycle, counted by reason. */
export type RejectionTally = Partial<Record<RejectionReason, number>>;

export function tallyRejections(
  rejections: readonly { reason: RejectionReason }[],
): RejectionTally {
  const tally: RejectionTally = {};
  for (const { reason } of rejections) tally[reason] = (tally[reason] ?? 0) + 1;
  return tally;
}

export interface RejectionCount {
  market: MarketId;
  reason: RejectionReason;
  count: number;
}

interface LogWindow {
  startedAt: number;
  logged: number;
  suppressed: number;
}

export class RejectionTracker {
  private readonly counters = new Map<MarketId, Map<RejectionReason, number>>();
  private readonly windows = new Map<MarketId, LogWindow>();

  constructor(
    private readonly logger: WarnLogger,
    private readonly maxLinesPerMinute = 5,
  ) {}

  record(rejections: readonly RejectionEvent[], now: number): void {
    for (const rejection of rejections) {
      this.count(rejection.market, rejection.reason);
      this.log(rejection, now);
    }
  }

  /** Every non-zero counter, ordered by market then reason. */
  counts(): RejectionCount[] {
    const rows: RejectionCount[] = [];
    for (const [market, reasons] of this.counters) {
      for (const [reason, count] of reasons) rows.push({ market, reason, count });
    }
    return rows.sort(
      (a, b) => a.market.localeCompare(b.market) || a.reason.localeCompare(b.reason),
    );
  }

  countsFor(market: MarketId): Partial<Record<RejectionReason, number>> {
    return Object.fromEntries(this.counters.get(market) ?? []);
  }

  total(market?: MarketId): number {
    let sum = 0;
    for (const row of this.counts()) if (!market || row.market === market) sum += row.count;
    return sum;
  }

  private count(market: MarketId, reason: RejectionReason): void {
    let reasons = this.counters.get(market);
    if (!reasons) this.counters.set(market, (reasons = new Map()));
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }

  private log(rejection: RejectionEvent, now: number): void {
    const window = this.currentWindow(rejection.market, now);
    if (window.logged >= this.maxLinesPerMinute) {
      window.suppressed += 1;
      return;
    }
    window.logged += 1;
    const { market, reason, detail, item } = rejection;
    this.logger.warn({ market, reason, item, detail }, 'observation rejected');
  }

  private currentWindow(market: MarketId, now: number): LogWindow {
    const window = this.windows.get(market);
    if (window && now - window.startedAt < MINUTE) return window;
    const fresh: LogWindow = { startedAt: now, logged: 0, suppressed: 0 };
    if (window && window.suppressed > 0) {
      fresh.logged = 1;
      this.logger.warn(
        { market, suppressed: window.suppressed },
        'observation rejections not logged (sampling)',
      );
    }
    this.windows.set(market, fresh);
    return fresh;
  }
}

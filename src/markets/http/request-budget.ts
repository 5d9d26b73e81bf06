/**
 * A market's request budget from its published limits, e.g. Skinport's "8 requests / 5 minutes".
 * A token bucket whose tokens come back one window after they were spent: each limit keeps the
 * send times of its last `requests` sends, and a send is allowed only when the oldest of them is
 * at least a window old. So no window of that length, wherever it starts, ever holds more than
 * `requests` sends (a classic bucket refilling at a steady rate would allow twice that across a
 * window boundary). `Retry-After` blocks the whole budget until the time it names.
 */
import type { RequestLimit } from './market-http.ts';

class Ring {
  private readonly times: number[] = [];
  private next = 0;

  constructor(readonly limit: RequestLimit) {}

  /** 0 when a send is allowed at `now`, else the ms until it is. */
  waitAt(now: number): number {
    if (this.times.length < this.limit.requests) return 0;
    const oldest = this.times[this.next]!;
    return Math.max(0, oldest + this.limit.windowMs - now);
  }

  spend(now: number): void {
    if (this.times.length < this.limit.requests) {
      this.times.push(now);
      return;
    }
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.limit.requests;
  }

  usedAt(now: number): number {
    return this.times.filter((time) => time > now - this.limit.windowMs).length;
  }
}

export class RequestBudget {
  private readonly rings: Ring[];
  private blockedUntil: number | null = null;

  constructor(limits: readonly RequestLimit[]) {
    for (const limit of limits) {
      if (!Number.isSafeInteger(limit.requests) || limit.requests < 1 || limit.windowMs <= 0) {
        throw new Error(`invalid request limit ${JSON.stringify(limit)}`);
      }
    }
    this.rings = limits.map((limit) => new Ring(limit));
  }

  /** 0 when a request may be sent at `now`, else the ms to wait. */
  waitAt(now: number): number {
    let wait = this.blockedUntil === null ? 0 : Math.max(0, this.blockedUntil - now);
    for (const ring of this.rings) wait = Math.max(wait, ring.waitAt(now));
    return wait;
  }

  /** Spends one token of every limit; only call after `waitAt(now)` returned 0. */
  spend(now: number): void {
    for (const ring of this.rings) ring.spend(now);
  }

  /** Nothing is sent before `until` (a `Retry-After`). */
  block(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil ?? 0, until);
  }

  blockedAt(now: number): number | null {
    return this.blockedUntil !== null && this.blockedUntil > now ? this.blockedUntil : null;
  }

  usedAt(now: number): number[] {
    return this.rings.map((ring) => ring.usedAt(now));
  }
}

/**
 * A market's request budget from its published limits, e.g. Skinport's "8 requests / 5 minutes".
 * A token bucket whose tokens come back one window after they were spent: each limit keeps the
 * send times of its last `requests` sends, and a send is allowed only when the oldest of them is
 * at least a window old. So no window of that length, wherever it starts, ever holds more than
 * `requests` sends (a classic bucket refilling at a steady rate would allow twice that across a
 * window boundary). A request that never left (the connection was refused or its host did not
 * resolve) gets its token back. `Retry-After` blocks the whole budget until the time it names.
 */
import type { RequestLimit } from './market-http.ts';

class Ring {
  /** Send times still inside the window, oldest first; never more than `requests`. */
  private times: number[] = [];

  constructor(readonly limit: RequestLimit) {}

  private expire(now: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - this.limit.windowMs) this.times.shift();
  }

  /** 0 when a send is allowed at `now`, else the ms until it is. */
  waitAt(now: number): number {
    this.expire(now);
    if (this.times.length < this.limit.requests) return 0;
    return Math.max(0, this.times[0]! + this.limit.windowMs - now);
  }

  spend(now: number): void {
    this.times.push(now);
    if (this.times.length > this.limit.requests) this.times.shift();
  }

  refund(at: number): void {
    const index = this.times.lastIndexOf(at);
    if (index >= 0) this.times.splice(index, 1);
  }

  usedAt(now: number): number {
    this.expire(now);
    return this.times.length;
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

  /** Gives back the token spent at `at`: the request never reached the upstream. */
  refund(at: number): void {
    for (const ring of this.rings) ring.refund(at);
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

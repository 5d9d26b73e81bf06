/**
 * The quota limiter port. It never sees a framework request: callers pass an account id, the
 * account's limits and `now`. Windows: the UTC clock minute and the UTC calendar month, both
 * pooled per account. A request refused by the minute window spends no monthly quota.
 * Implementations: memory (embedded default) and Redis (scaled); one contract suite.
 */
export interface QuotaLimits {
  perMinute: number;
  /** null: no monthly cap. */
  monthly: number | null;
}

export interface WindowState {
  limit: number;
  remaining: number;
  /** Whole seconds until this window resets (>= 1). */
  resetSeconds: number;
}

export interface QuotaDecision {
  allowed: boolean;
  /** Which window refused the request, when it was refused. */
  refusedBy: 'minute' | 'month' | null;
  minute: WindowState;
  /** null on plans without a monthly cap. */
  month: WindowState | null;
  /** Seconds to wait, set when refused. */
  retryAfterSeconds: number | null;
}

export interface RateLimiter {
  consume(accountId: string, limits: QuotaLimits, now: number): Promise<QuotaDecision>;
  /**
   * The same decision without waiting, when the limiter can make it in-process; null (and
   * nothing spent) when it cannot. The returned object is reused by the next call: read it
   * before calling again.
   */
  consumeNow?(accountId: string, limits: QuotaLimits, now: number): QuotaDecision | null;
  close(): Promise<void>;
}

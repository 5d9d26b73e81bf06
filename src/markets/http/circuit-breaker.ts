/**
 * A circuit breaker per market: after `failureThreshold` consecutive failed requests it opens
 * and sends nothing for a cooldown; then it lets exactly one probe through (half-open). A probe
 * that succeeds closes it; one that fails opens it again for twice the cooldown, up to a cap.
 * Time comes from the caller, so the rules are testable to the millisecond.
 */
export interface BreakerOptions {
  failureThreshold: number;
  cooldownMs: number;
  maxCooldownMs: number;
}

export const DEFAULT_BREAKER: BreakerOptions = {
  failureThreshold: 5,
  cooldownMs: 30_000,
  maxCooldownMs: 10 * 60_000,
};

export type Admission = { allowed: true; probe: boolean } | { allowed: false; retryAt: number };

export class CircuitBreaker {
  private failures = 0;
  private openUntil: number | null = null;
  private cooldownMs: number;
  private probing = false;

  constructor(private readonly options: BreakerOptions = DEFAULT_BREAKER) {
    this.cooldownMs = options.cooldownMs;
  }

  admit(now: number): Admission {
    if (this.openUntil === null) return { allowed: true, probe: false };
    if (now < this.openUntil || this.probing) {
      return { allowed: false, retryAt: Math.max(this.openUntil, now) };
    }
    this.probing = true;
    return { allowed: true, probe: true };
  }

  success(): void {
    this.failures = 0;
    this.openUntil = null;
    this.probing = false;
    this.cooldownMs = this.options.cooldownMs;
  }

  failure(now: number): void {
    if (this.probing) {
      this.probing = false;
      this.cooldownMs = Math.min(this.cooldownMs * 2, this.options.maxCooldownMs);
      this.openUntil = now + this.cooldownMs;
      return;
    }
    this.failures += 1;
    if (this.openUntil === null && this.failures >= this.options.failureThreshold) {
      this.openUntil = now + this.cooldownMs;
    }
  }

  /** A request that ended without a verdict on the upstream (e.g. the caller aborted). */
  release(): void {
    this.probing = false;
  }

  state(now: number): 'closed' | 'open' | 'half_open' {
    if (this.openUntil === null) return 'closed';
    return now < this.openUntil && !this.probing ? 'open' : 'half_open';
  }
}

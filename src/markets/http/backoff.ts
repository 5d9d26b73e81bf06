/**
 * Retry timing: "equal jitter" exponential backoff (half the step fixed, half random, so
 * retries from many pollers spread out but never fire at once) and `Retry-After`, which an
 * upstream may give as seconds or as an HTTP date (RFC 9110 §10.2.3). A wait that `Retry-After`
 * names is never shortened.
 */
export interface RetryPolicy {
  /** Attempts per request, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited out inside a poll: the request fails. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 15_000,
};

/** Delay before attempt `attempt + 1`, after `attempt` failures (1-based). */
export function backoffDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs: number | null,
): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(step / 2 + random() * (step / 2));
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** `Retry-After` in ms from `now`, or null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at) || !/[A-Za-z]/.test(text)) return null;
  return Math.max(0, at - now);
}

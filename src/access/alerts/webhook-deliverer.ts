/**
 * Works through stored webhook deliveries: claims the due ones under a lease, sends each attempt,
 * and logs it. A 2xx ends a delivery; anything else is retried with exponential backoff (30 s,
 * 1 min, 2 min, … at most 1 h apart) until 24 h after the event, then the delivery is failed.
 */
import { randomBytes } from 'node:crypto';
import { DAY, HOUR, SECOND, type Clock } from '../../domain/clock.ts';
import type { AlertStore, AttemptOutcome, DueDelivery } from './alert-store.ts';
import type { SendResult, WebhookAttempt } from './webhook-sender.ts';

export const FIRST_RETRY_MS = 30 * SECOND;
export const MAX_RETRY_GAP_MS = HOUR;
export const RETRY_WINDOW_MS = DAY;
/** A claim outlives the longest attempt (10 s timeout) with a wide margin. */
export const LEASE_MS = 60 * SECOND;

export interface Sender {
  send(attempt: WebhookAttempt): Promise<SendResult>;
}

/** The gap after failed attempt number `attempt` (1-based). */
export function retryDelay(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.min(attempt - 1, 20), MAX_RETRY_GAP_MS);
}

export function outcomeOf(
  result: SendResult,
  due: DueDelivery,
  now: number,
): Omit<AttemptOutcome, 'attempt'> {
  const ok = result.httpStatus !== null && result.httpStatus >= 200 && result.httpStatus < 300;
  if (ok) return { status: 'delivered', nextAttemptAt: now };
  const next = now + retryDelay(due.attemptCount + 1);
  if (next > due.createdAt + RETRY_WINDOW_MS) return { status: 'failed', nextAttemptAt: now };
  return { status: 'pending', nextAttemptAt: next };
}

export class WebhookDeliverer {
  readonly owner = `deliverer-${randomBytes(6).toString('hex')}`;

  constructor(
    private readonly store: AlertStore,
    private readonly sender: Sender,
    private readonly clock: Clock,
    private readonly batch = 20,
  ) {}

  /** Claims what is due now and sends it; the number of attempts made. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const due = await this.store.claimDue({
      owner: this.owner,
      now,
      leaseMs: LEASE_MS,
      limit: this.batch,
    });
    await Promise.all(due.map((delivery) => this.attempt(delivery)));
    return due.length;
  }

  private async attempt(due: DueDelivery): Promise<void> {
    const started = this.clock.now();
    const result = await this.sender.send({
      url: due.url,
      secret: due.secret,
      eventId: due.id,
      body: due.body,
      unixSeconds: Math.floor(started / SECOND),
    });
    const attempt = { at: started, httpStatus: result.httpStatus, error: result.error };
    await this.store.recordAttempt(due.id, this.owner, {
      attempt,
      ...outcomeOf(result, due, this.clock.now()),
    });
  }
}

/**
 * The port for price alerts and their webhook deliveries (issue 29 point 2), with one SQLite and
 * one PostgreSQL adapter checked by one contract suite (alert-store-contract.ts).
 *
 * A firing writes the alert's new memory and its pending delivery in one transaction, before any
 * network call, so a restart loses no delivery. Deliverers claim due deliveries under a lease
 * (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so in a scaled-out deployment exactly one process
 * sends each attempt; a lease left by a crashed process expires and the delivery is claimed again.
 */
import type { AlertCondition, AlertMemory } from '../../pricing/alert-rules.ts';

export interface AlertRecord {
  id: string;
  accountId: string;
  marketHashName: string;
  canonicalItemId: string;
  condition: AlertCondition;
  url: string;
  /** Only these markets' quotes count (null: all markets). */
  markets: string[] | null;
  cooldownSeconds: number;
  /** The HMAC key for X-Pricing-Signature; shown to the user once, at creation. */
  secret: string;
  createdAt: number;
  memory: AlertMemory;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface NewDelivery {
  /** The event id (X-Pricing-Event-Id and the body's `id`). */
  id: string;
  alertId: string;
  /** The exact JSON body sent on every attempt (signed as is). */
  body: string;
  createdAt: number;
}

export interface DeliveryAttempt {
  at: number;
  /** The HTTP status answered, or null when no answer came (timeout, refused, network). */
  httpStatus: number | null;
  error: string | null;
}

export interface DeliveryRecord extends NewDelivery {
  status: DeliveryStatus;
  nextAttemptAt: number;
  attempts: DeliveryAttempt[];
}

/** A claimed delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  alertId: string;
  body: string;
  url: string;
  secret: string;
  createdAt: number;
  attemptCount: number;
}

export interface AttemptOutcome {
  attempt: DeliveryAttempt;
  status: DeliveryStatus;
  /** When to try again (only read while status stays 'pending'). */
  nextAttemptAt: number;
}

export interface ClaimRequest {
  owner: string;
  now: number;
  leaseMs: number;
  limit: number;
}

export interface AlertStore {
  init(): Promise<void>;
  createAlert(alert: AlertRecord): Promise<void>;
  getAlert(id: string): Promise<AlertRecord | null>;
  /** One account's alerts, oldest first. */
  listAlerts(accountId: string): Promise<AlertRecord[]>;
  countAlerts(accountId: string): Promise<number>;
  /** Every alert (what the evaluator watches), oldest first. */
  allAlerts(): Promise<AlertRecord[]>;
  /** Removes the alert and its deliveries; false when there was none. */
  deleteAlert(id: string): Promise<boolean>;
  /** Stores a memory change that did not fire. */
  saveMemory(alertId: string, memory: AlertMemory): Promise<void>;
  /**
   * Stores the memory after a firing and its pending delivery, due at `createdAt`, at once, if
   * the alert last fired at `firedBefore` still (so of processes seeing one change, one fires);
   * false when the alert is gone or another process fired it first.
   */
  recordFiring(
    alertId: string,
    firedBefore: number | null,
    memory: AlertMemory,
    delivery: NewDelivery,
  ): Promise<boolean>;
  /** Leases up to `limit` pending deliveries due by `now` that nobody holds, oldest due first. */
  claimDue(request: ClaimRequest): Promise<DueDelivery[]>;
  /** Logs an attempt and ends the owner's lease; false when the lease was lost to another. */
  recordAttempt(deliveryId: string, owner: string, outcome: AttemptOutcome): Promise<boolean>;
  /** One alert's deliveries, newest first, with every attempt in order. */
  listDeliveries(alertId: string, limit: number): Promise<DeliveryRecord[]>;
  close(): Promise<void>;
}

/** Row shapes shared by the two alert-store adapters, and their conversions. */
import type { AlertMemory, ConditionType } from '../../pricing/alert-rules.ts';
import type {
  AlertRecord,
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryStatus,
} from './alert-store.ts';

export interface AlertRow {
  id: string;
  account_id: string;
  market_hash_name: string;
  canonical_item_id: string;
  condition_type: string;
  condition_value: number;
  url: string;
  markets: string | null;
  cooldown_seconds: number;
  secret: string;
  created_at: number;
  last_fired_at: number | null;
  reference_ask: number | null;
  armed: number | boolean;
}

export interface DeliveryRow {
  id: string;
  alert_id: string;
  body: string;
  created_at: number;
  status: string;
  next_attempt_at: number;
}

export interface AttemptRow {
  delivery_id: string;
  at: number;
  http_status: number | null;
  error: string | null;
}

export function alertToRow(alert: AlertRecord): AlertRow {
  return {
    id: alert.id,
    account_id: alert.accountId,
    market_hash_name: alert.marketHashName,
    canonical_item_id: alert.canonicalItemId,
    condition_type: alert.condition.type,
    condition_value: alert.condition.value,
    url: alert.url,
    markets: alert.markets ? JSON.stringify(alert.markets) : null,
    cooldown_seconds: alert.cooldownSeconds,
    secret: alert.secret,
    created_at: alert.createdAt,
    last_fired_at: alert.memory.lastFiredAt,
    reference_ask: alert.memory.referenceAsk,
    armed: alert.memory.armed ? 1 : 0,
  };
}

export function rowToAlert(row: AlertRow): AlertRecord {
  const memory: AlertMemory = {
    lastFiredAt: row.last_fired_at,
    referenceAsk: row.reference_ask,
    armed: row.armed === true || row.armed === 1,
  };
  return {
    id: row.id,
    accountId: row.account_id,
    marketHashName: row.market_hash_name,
    canonicalItemId: row.canonical_item_id,
    condition: { type: row.condition_type as ConditionType, value: row.condition_value },
    url: row.url,
    markets: row.markets === null ? null : (JSON.parse(row.markets) as string[]),
    cooldownSeconds: row.cooldown_seconds,
    secret: row.secret,
    createdAt: row.created_at,
    memory,
  };
}

export function attemptOf(row: AttemptRow): DeliveryAttempt {
  return { at: row.at, httpStatus: row.http_status, error: row.error };
}

/** Deliveries in row order, each with its attempts (attempt rows in the order given). */
export function deliveriesWithAttempts(
  rows: readonly DeliveryRow[],
  attempts: readonly AttemptRow[],
): DeliveryRecord[] {
  const byDelivery = new Map<string, DeliveryAttempt[]>();
  for (const row of attempts) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push(attemptOf(row));
    byDelivery.set(row.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alert_id,
    body: row.body,
    createdAt: row.created_at,
    status: row.status as DeliveryStatus,
    nextAttemptAt: row.next_attempt_at,
    attempts: byDelivery.get(row.id) ?? [],
  }));
}

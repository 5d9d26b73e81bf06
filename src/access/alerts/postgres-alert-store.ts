/**
 * AlertStore on PostgreSQL, shared by every API process of a scaled-out deployment. Claims take
 * due rows with `FOR UPDATE SKIP LOCKED` and lease them in the same statement, so concurrent
 * deliverers never send the same attempt; an attempt is logged only by the lease's owner.
 */
import { systemClock, type Clock } from '../../domain/clock.ts';
import { createPool, inTransaction } from '../../store/postgres/driver.ts';
import type { PostgresConnectionOptions } from '../../store/postgres/driver.ts';
import { migrate, type PostgresMigration } from '../../store/postgres/migrate.ts';
import type { AlertStore, DueDelivery } from './alert-store.ts';
import {
  alertToRow,
  deliveriesWithAttempts,
  rowToAlert,
  type AlertRow,
  type AttemptRow,
  type DeliveryRow,
} from './alert-rows.ts';

export interface PostgresAlertStoreOptions extends PostgresConnectionOptions {
  clock?: Clock;
}

const SAFE = 'BETWEEN -9007199254740991 AND 9007199254740991';

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'alerts, deliveries, attempts',
    sql: `
      CREATE TABLE alerts (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        market_hash_name TEXT NOT NULL,
        canonical_item_id TEXT NOT NULL,
        condition_type TEXT NOT NULL,
        condition_value BIGINT NOT NULL CHECK (condition_value ${SAFE}),
        url TEXT NOT NULL,
        markets TEXT,
        cooldown_seconds INTEGER NOT NULL,
        secret TEXT NOT NULL,
        created_at BIGINT NOT NULL CHECK (created_at ${SAFE}),
        last_fired_at BIGINT CHECK (last_fired_at ${SAFE}),
        reference_ask BIGINT CHECK (reference_ask ${SAFE}),
        armed BOOLEAN NOT NULL
      );
      CREATE INDEX alerts_account ON alerts (account_id, created_at);
      CREATE TABLE alert_deliveries (
        id TEXT PRIMARY KEY,
        alert_id TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL CHECK (created_at ${SAFE}),
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        next_attempt_at BIGINT NOT NULL CHECK (next_attempt_at ${SAFE}),
        lease_owner TEXT,
        lease_until BIGINT CHECK (lease_until ${SAFE})
      );
      CREATE INDEX alert_deliveries_due ON alert_deliveries (next_attempt_at)
        WHERE status = 'pending';
      CREATE INDEX alert_deliveries_alert ON alert_deliveries (alert_id, created_at);
      CREATE TABLE alert_delivery_attempts (
        delivery_id TEXT NOT NULL REFERENCES alert_deliveries (id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        at BIGINT NOT NULL CHECK (at ${SAFE}),
        http_status INTEGER,
        error TEXT,
        PRIMARY KEY (delivery_id, attempt)
      );`,
  },
];

const CLAIM = `
  WITH due AS (
    SELECT id FROM alert_deliveries
    WHERE status = 'pending' AND next_attempt_at <= $1
      AND (lease_until IS NULL OR lease_until <= $1)
    ORDER BY next_attempt_at, id LIMIT $2
    FOR UPDATE SKIP LOCKED
  )
  UPDATE alert_deliveries d SET lease_owner = $3, lease_until = $4
  FROM due, alerts a
  WHERE d.id = due.id AND a.id = d.alert_id
  RETURNING d.id, d.alert_id AS "alertId", d.body, a.url, a.secret, d.created_at AS "createdAt",
    d.next_attempt_at AS "nextAttemptAt",
    (SELECT COUNT(*)::int FROM alert_delivery_attempts t WHERE t.delivery_id = d.id)
      AS "attemptCount"`;

const INSERT_ALERT = `
  INSERT INTO alerts (id, account_id, market_hash_name, canonical_item_id, condition_type,
    condition_value, url, markets, cooldown_seconds, secret, created_at, last_fired_at,
    reference_ask, armed)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;

const SAVE_MEMORY =
  'UPDATE alerts SET last_fired_at = $2, reference_ask = $3, armed = $4 WHERE id = $1';

function alertParams(row: AlertRow): unknown[] {
  return [
    row.id,
    row.account_id,
    row.market_hash_name,
    row.canonical_item_id,
    row.condition_type,
    row.condition_value,
    row.url,
    row.markets,
    row.cooldown_seconds,
    row.secret,
    row.created_at,
    row.last_fired_at,
    row.reference_ask,
    row.armed === 1 || row.armed === true,
  ];
}

export function createPostgresAlertStore(options: PostgresAlertStoreOptions): AlertStore {
  const clock = options.clock ?? systemClock;
  const pool = createPool(options);
  let initialised = false;
  const ready = (): void => {
    if (!initialised) throw new Error('PostgresAlertStore: call init() first');
  };
  const alertRows = async (where: string, values: unknown[]): Promise<AlertRow[]> => {
    ready();
    const sql = `SELECT * FROM alerts ${where} ORDER BY created_at, id`;
    return (await pool.query<AlertRow>(sql, values)).rows;
  };

  return {
    async init() {
      if (initialised) return;
      await migrate(pool, {
        ledger: 'alert_migrations',
        migrations: MIGRATIONS,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        now: () => clock.now(),
      });
      initialised = true;
    },
    async createAlert(alert) {
      ready();
      await pool.query(INSERT_ALERT, alertParams(alertToRow(alert)));
    },
    async getAlert(id) {
      const [row] = await alertRows('WHERE id = $1', [id]);
      return row ? rowToAlert(row) : null;
    },
    async listAlerts(accountId) {
      return (await alertRows('WHERE account_id = $1', [accountId])).map(rowToAlert);
    },
    async countAlerts(accountId) {
      ready();
      const sql = 'SELECT COUNT(*)::int AS n FROM alerts WHERE account_id = $1';
      return (await pool.query<{ n: number }>(sql, [accountId])).rows[0]?.n ?? 0;
    },
    async allAlerts() {
      return (await alertRows('', [])).map(rowToAlert);
    },
    async deleteAlert(id) {
      ready();
      return ((await pool.query('DELETE FROM alerts WHERE id = $1', [id])).rowCount ?? 0) > 0;
    },
    async saveMemory(alertId, { lastFiredAt, referenceAsk, armed }) {
      ready();
      await pool.query(SAVE_MEMORY, [alertId, lastFiredAt, referenceAsk, armed]);
    },
    async recordFiring(alertId, firedBefore, { lastFiredAt, referenceAsk, armed }, delivery) {
      ready();
      return inTransaction(pool, async (client) => {
        const saved = await client.query(
          `${SAVE_MEMORY} AND last_fired_at IS NOT DISTINCT FROM $5`,
          [alertId, lastFiredAt, referenceAsk, armed, firedBefore],
        );
        if (saved.rowCount === 0) return false;
        await client.query(
          `INSERT INTO alert_deliveries (id, alert_id, body, created_at, status, next_attempt_at)
           VALUES ($1, $2, $3, $4, 'pending', $4)`,
          [delivery.id, alertId, delivery.body, delivery.createdAt],
        );
        return true;
      });
    },
    async claimDue({ owner, now, leaseMs, limit }) {
      ready();
      const result = await pool.query<DueDelivery & { nextAttemptAt: number }>(CLAIM, [
        now,
        limit,
        owner,
        now + leaseMs,
      ]);
      return result.rows
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : 1))
        .map(({ nextAttemptAt: _, ...due }) => due);
    },
    async recordAttempt(deliveryId, owner, { attempt, status, nextAttemptAt }) {
      ready();
      return inTransaction(pool, async (client) => {
        const finished = await client.query(
          `UPDATE alert_deliveries SET status = $3, next_attempt_at = $4, lease_owner = NULL,
             lease_until = NULL WHERE id = $1 AND lease_owner = $2`,
          [deliveryId, owner, status, nextAttemptAt],
        );
        if (finished.rowCount === 0) return false;
        await client.query(
          `INSERT INTO alert_delivery_attempts (delivery_id, attempt, at, http_status, error)
           SELECT $1, COUNT(*) + 1, $2, $3, $4 FROM alert_delivery_attempts WHERE delivery_id = $1`,
          [deliveryId, attempt.at, attempt.httpStatus, attempt.error],
        );
        return true;
      });
    },
    async listDeliveries(alertId, limit) {
      ready();
      const deliveries = await pool.query<DeliveryRow>(
        `SELECT id, alert_id, body, created_at, status, next_attempt_at FROM alert_deliveries
         WHERE alert_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
        [alertId, limit],
      );
      const attempts = await pool.query<AttemptRow>(
        `SELECT t.delivery_id, t.at, t.http_status, t.error FROM alert_delivery_attempts t
         JOIN alert_deliveries d ON d.id = t.delivery_id WHERE d.alert_id = $1
         ORDER BY t.delivery_id, t.attempt`,
        [alertId],
      );
      return deliveriesWithAttempts(deliveries.rows, attempts.rows);
    },
    async close() {
      await pool.end();
    },
  };
}

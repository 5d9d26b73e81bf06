/**
 * AlertStore on better-sqlite3 (`<data>/alerts.db` or ':memory:'). WAL + busy_timeout so several
 * processes on one host can share the file; a claim is one IMMEDIATE transaction, so two
 * deliverers never lease the same delivery.
 */
import type Database from 'better-sqlite3';
import { openSideStore } from '../../store/sqlite/connection.ts';
import type { AlertStore } from './alert-store.ts';
import {
  alertToRow,
  deliveriesWithAttempts,
  rowToAlert,
  type AlertRow,
  type AttemptRow,
  type DeliveryRow,
} from './alert-rows.ts';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE alerts (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     market_hash_name TEXT NOT NULL,
     canonical_item_id TEXT NOT NULL,
     condition_type TEXT NOT NULL,
     condition_value INTEGER NOT NULL,
     url TEXT NOT NULL,
     markets TEXT,
     cooldown_seconds INTEGER NOT NULL,
     secret TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     last_fired_at INTEGER,
     reference_ask INTEGER,
     armed INTEGER NOT NULL
   );
   CREATE INDEX alerts_account ON alerts(account_id, created_at);
   CREATE TABLE alert_deliveries (
     id TEXT PRIMARY KEY,
     alert_id TEXT NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
     body TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     status TEXT NOT NULL,
     next_attempt_at INTEGER NOT NULL,
     lease_owner TEXT,
     lease_until INTEGER
   );
   CREATE INDEX alert_deliveries_due ON alert_deliveries(status, next_attempt_at);
   CREATE INDEX alert_deliveries_alert ON alert_deliveries(alert_id, created_at);
   CREATE TABLE alert_delivery_attempts (
     delivery_id TEXT NOT NULL REFERENCES alert_deliveries(id) ON DELETE CASCADE,
     attempt INTEGER NOT NULL,
     at INTEGER NOT NULL,
     http_status INTEGER,
     error TEXT,
     PRIMARY KEY (delivery_id, attempt)
   );`,
];

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS alert_migrations (version INTEGER PRIMARY KEY)');
  const applied = db.prepare<[], { v: number | null }>(
    'SELECT MAX(version) AS v FROM alert_migrations',
  );
  const record = db.prepare<[number]>('INSERT INTO alert_migrations (version) VALUES (?)');
  db.transaction(() => {
    const current = applied.get()?.v ?? 0;
    MIGRATIONS.slice(current).forEach((sql, index) => {
      db.exec(sql);
      record.run(current + index + 1);
    });
  }).immediate();
}

function prepareStatements(db: Database.Database) {
  return {
    insertAlert: db.prepare<[AlertRow]>(
      `INSERT INTO alerts (id, account_id, market_hash_name, canonical_item_id, condition_type,
         condition_value, url, markets, cooldown_seconds, secret, created_at, last_fired_at,
         reference_ask, armed)
       VALUES (@id, @account_id, @market_hash_name, @canonical_item_id, @condition_type,
         @condition_value, @url, @markets, @cooldown_seconds, @secret, @created_at,
         @last_fired_at, @reference_ask, @armed)`,
    ),
    alertById: db.prepare<[string], AlertRow>('SELECT * FROM alerts WHERE id = ?'),
    alertsOf: db.prepare<[string], AlertRow>(
      'SELECT * FROM alerts WHERE account_id = ? ORDER BY created_at, id',
    ),
    countOf: db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM alerts WHERE account_id = ?',
    ),
    allAlerts: db.prepare<[], AlertRow>('SELECT * FROM alerts ORDER BY created_at, id'),
    deleteAlert: db.prepare<[string]>('DELETE FROM alerts WHERE id = ?'),
    fire: db.prepare<[number | null, number | null, number, string, number | null]>(
      `UPDATE alerts SET last_fired_at = ?, reference_ask = ?, armed = ?
       WHERE id = ? AND last_fired_at IS ?`,
    ),
    saveMemory: db.prepare<[number | null, number | null, number, string]>(
      'UPDATE alerts SET last_fired_at = ?, reference_ask = ?, armed = ? WHERE id = ?',
    ),
    insertDelivery: db.prepare<[string, string, string, number, number]>(
      `INSERT INTO alert_deliveries (id, alert_id, body, created_at, status, next_attempt_at)
       VALUES (?, ?, ?, ?, 'pending', ?)`,
    ),
    due: db.prepare<[number, number, number], { id: string }>(
      `SELECT id FROM alert_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ?
         AND (lease_until IS NULL OR lease_until <= ?)
       ORDER BY next_attempt_at, id LIMIT ?`,
    ),
    lease: db.prepare<[string, number, string]>(
      'UPDATE alert_deliveries SET lease_owner = ?, lease_until = ? WHERE id = ?',
    ),
    dueDetail: db.prepare<
      [string],
      {
        id: string;
        alert_id: string;
        body: string;
        created_at: number;
        url: string;
        secret: string;
        attempts: number;
      }
    >(
      `SELECT d.id, d.alert_id, d.body, d.created_at, a.url, a.secret,
         (SELECT COUNT(*) FROM alert_delivery_attempts t WHERE t.delivery_id = d.id) AS attempts
       FROM alert_deliveries d JOIN alerts a ON a.id = d.alert_id WHERE d.id = ?`,
    ),
    finish: db.prepare<[string, number, string, string]>(
      `UPDATE alert_deliveries SET status = ?, next_attempt_at = ?, lease_owner = NULL,
         lease_until = NULL WHERE id = ? AND lease_owner = ?`,
    ),
    attemptCount: db.prepare<[string], { n: number }>(
      'SELECT COUNT(*) AS n FROM alert_delivery_attempts WHERE delivery_id = ?',
    ),
    insertAttempt: db.prepare<[string, number, number, number | null, string | null]>(
      `INSERT INTO alert_delivery_attempts (delivery_id, attempt, at, http_status, error)
       VALUES (?, ?, ?, ?, ?)`,
    ),
    deliveriesOf: db.prepare<[string, number], DeliveryRow>(
      `SELECT id, alert_id, body, created_at, status, next_attempt_at FROM alert_deliveries
       WHERE alert_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    attemptsOf: db.prepare<[string], AttemptRow>(
      `SELECT t.delivery_id, t.at, t.http_status, t.error FROM alert_delivery_attempts t
       JOIN alert_deliveries d ON d.id = t.delivery_id WHERE d.alert_id = ?
       ORDER BY t.delivery_id, t.attempt`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

export function createSqliteAlertStore(options: { path: string }): AlertStore {
  const db = openSideStore(options.path);
  let statements: Statements | null = null;
  const ready = (): Statements => {
    if (!statements) throw new Error('SqliteAlertStore: call init() first');
    return statements;
  };

  return {
    async init() {
      if (statements) return;
      migrate(db);
      statements = prepareStatements(db);
    },
    async createAlert(alert) {
      ready().insertAlert.run(alertToRow(alert));
    },
    async getAlert(id) {
      const row = ready().alertById.get(id);
      return row ? rowToAlert(row) : null;
    },
    async listAlerts(accountId) {
      return ready().alertsOf.all(accountId).map(rowToAlert);
    },
    async countAlerts(accountId) {
      return ready().countOf.get(accountId)?.n ?? 0;
    },
    async allAlerts() {
      return ready().allAlerts.all().map(rowToAlert);
    },
    async deleteAlert(id) {
      return ready().deleteAlert.run(id).changes > 0;
    },
    async saveMemory(alertId, memory) {
      const { lastFiredAt, referenceAsk, armed } = memory;
      ready().saveMemory.run(lastFiredAt, referenceAsk, armed ? 1 : 0, alertId);
    },
    async recordFiring(alertId, firedBefore, memory, delivery) {
      const s = ready();
      return db
        .transaction(() => {
          const { lastFiredAt, referenceAsk, armed } = memory;
          if (
            s.fire.run(lastFiredAt, referenceAsk, armed ? 1 : 0, alertId, firedBefore).changes === 0
          ) {
            return false;
          }
          const { id, body, createdAt } = delivery;
          s.insertDelivery.run(id, alertId, body, createdAt, createdAt);
          return true;
        })
        .immediate();
    },
    async claimDue({ owner, now, leaseMs, limit }) {
      const s = ready();
      return db
        .transaction(() =>
          s.due.all(now, now, limit).map(({ id }) => {
            s.lease.run(owner, now + leaseMs, id);
            const row = s.dueDetail.get(id)!;
            return {
              id: row.id,
              alertId: row.alert_id,
              body: row.body,
              url: row.url,
              secret: row.secret,
              createdAt: row.created_at,
              attemptCount: row.attempts,
            };
          }),
        )
        .immediate();
    },
    async recordAttempt(deliveryId, owner, { attempt, status, nextAttemptAt }) {
      const s = ready();
      return db
        .transaction(() => {
          if (s.finish.run(status, nextAttemptAt, deliveryId, owner).changes === 0) return false;
          const number = (s.attemptCount.get(deliveryId)?.n ?? 0) + 1;
          s.insertAttempt.run(deliveryId, number, attempt.at, attempt.httpStatus, attempt.error);
          return true;
        })
        .immediate();
    },
    async listDeliveries(alertId, limit) {
      const s = ready();
      return deliveriesWithAttempts(s.deliveriesOf.all(alertId, limit), s.attemptsOf.all(alertId));
    },
    async close() {
      db.close();
    },
  };
}

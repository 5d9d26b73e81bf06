/** The inventory snapshot store on PostgreSQL (its own migration ledger, the shared schema). */
import type { Clock } from '../../domain/clock.ts';
import {
  INVENTORY_COLUMNS,
  rowValues,
  snapshotFromRow,
  SUMMARY_COLUMNS,
  updateValues,
  type InventoryRow,
  type InventoryStore,
} from '../inventory-store.ts';
import { createPool, type PostgresConnectionOptions } from './driver.ts';
import { migrate } from './migrate.ts';

const MIGRATIONS = [
  {
    version: 1,
    name: 'inventory_snapshots',
    sql: `CREATE TABLE inventory_snapshots (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      target_steam_id TEXT NOT NULL,
      app_id INTEGER NOT NULL,
      context_id INTEGER NOT NULL,
      tradable_only INTEGER NOT NULL,
      max_inspections INTEGER NOT NULL,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      completed_at BIGINT,
      item_count INTEGER,
      inspected_count INTEGER,
      unresolved_count INTEGER,
      error TEXT,
      items TEXT
    );
    CREATE INDEX inventory_by_steam_id ON inventory_snapshots (target_steam_id, created_at);
    CREATE INDEX inventory_by_account ON inventory_snapshots (account_id, created_at);`,
  },
];

export function createPostgresInventoryStore(
  options: PostgresConnectionOptions & { clock: Clock },
): InventoryStore {
  const pool = createPool(options);
  const placeholders = Array.from({ length: 15 }, (_, index) => `$${index + 1}`).join(', ');
  return {
    async init() {
      await migrate(pool, {
        ledger: 'inventory_migrations',
        migrations: MIGRATIONS,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        now: () => options.clock.now(),
      });
    },
    async create(snapshot) {
      await pool.query(
        `INSERT INTO inventory_snapshots (${INVENTORY_COLUMNS}) VALUES (${placeholders})`,
        rowValues(snapshot),
      );
    },
    async update(id, update) {
      const [columns, values] = updateValues(update);
      const set = columns.map((column, index) => `${column} = $${index + 2}`).join(', ');
      await pool.query(`UPDATE inventory_snapshots SET ${set} WHERE id = $1`, [id, ...values]);
    },
    async get(id) {
      const result = await pool.query<InventoryRow>(
        `SELECT ${INVENTORY_COLUMNS} FROM inventory_snapshots WHERE id = $1`,
        [id],
      );
      const row = result.rows[0];
      return row ? snapshotFromRow(row, true) : null;
    },
    async history(steamId, limit, offset) {
      const rows = await pool.query<InventoryRow>(
        `SELECT ${SUMMARY_COLUMNS} FROM inventory_snapshots WHERE target_steam_id = $1
         ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [steamId, limit, offset],
      );
      const count = await pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM inventory_snapshots WHERE target_steam_id = $1',
        [steamId],
      );
      return {
        snapshots: rows.rows.map((row) => snapshotFromRow(row, false)),
        total: count.rows[0]?.n ?? 0,
      };
    },
    async countSince(accountId, sinceMs) {
      const result = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM inventory_snapshots
         WHERE account_id = $1 AND created_at >= $2`,
        [accountId, sinceMs],
      );
      return result.rows[0]?.n ?? 0;
    },
    close: () => pool.end(),
  };
}

/** The inventory snapshot store on better-sqlite3 (`<data>/inventory.db` or ':memory:'). */
import {
  INVENTORY_COLUMNS,
  rowValues,
  snapshotFromRow,
  SUMMARY_COLUMNS,
  updateValues,
  type InventoryRow,
  type InventoryStore,
} from '../inventory-store.ts';
import { openSideStore } from './connection.ts';

const TABLE = `CREATE TABLE IF NOT EXISTS inventory_snapshots (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  target_steam_id TEXT NOT NULL,
  app_id INTEGER NOT NULL,
  context_id INTEGER NOT NULL,
  tradable_only INTEGER NOT NULL,
  max_inspections INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  completed_at INTEGER,
  item_count INTEGER,
  inspected_count INTEGER,
  unresolved_count INTEGER,
  error TEXT,
  items TEXT
);
CREATE INDEX IF NOT EXISTS inventory_by_steam_id ON inventory_snapshots (target_steam_id, created_at);
CREATE INDEX IF NOT EXISTS inventory_by_account ON inventory_snapshots (account_id, created_at);`;

export function createSqliteInventoryStore(path: string): InventoryStore {
  const db = openSideStore(path);
  db.exec(TABLE);
  const insert = db.prepare(
    `INSERT INTO inventory_snapshots (${INVENTORY_COLUMNS}) VALUES (${Array(15).fill('?').join(', ')})`,
  );
  const byId = db.prepare(`SELECT ${INVENTORY_COLUMNS} FROM inventory_snapshots WHERE id = ?`);
  const page = db.prepare(
    `SELECT ${SUMMARY_COLUMNS} FROM inventory_snapshots WHERE target_steam_id = ?
     ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const count = db.prepare(
    'SELECT count(*) AS n FROM inventory_snapshots WHERE target_steam_id = ?',
  );
  const since = db.prepare(
    'SELECT count(*) AS n FROM inventory_snapshots WHERE account_id = ? AND created_at >= ?',
  );
  return {
    init: () => Promise.resolve(),
    create(snapshot) {
      insert.run(...rowValues(snapshot));
      return Promise.resolve();
    },
    update(id, update) {
      const [columns, values] = updateValues(update);
      const set = columns.map((column) => `${column} = ?`).join(', ');
      db.prepare(`UPDATE inventory_snapshots SET ${set} WHERE id = ?`).run(...values, id);
      return Promise.resolve();
    },
    get(id) {
      const row = byId.get(id) as InventoryRow | undefined;
      return Promise.resolve(row ? snapshotFromRow(row, true) : null);
    },
    history(steamId, limit, offset) {
      const rows = page.all(steamId, limit, offset) as InventoryRow[];
      const total = (count.get(steamId) as { n: number }).n;
      return Promise.resolve({ snapshots: rows.map((row) => snapshotFromRow(row, false)), total });
    },
    countSince(accountId, sinceMs) {
      return Promise.resolve((since.get(accountId, sinceMs) as { n: number }).n);
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

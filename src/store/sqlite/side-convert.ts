/**
 * Opens a data dir of the table layout (`side_snapshots`, one row per side, releases before
 * issue 31): its rows become the first snapshot generation (side-snapshot.ts) in one
 * transaction, and the table is dropped in a second. A crash between the two leaves the table,
 * so the next open converts again, into a newer generation that replaces the first; the log
 * cannot have grown in between (both run at init, before any batch).
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { encodeEntries, type SideEntry } from './side-codec.ts';
import type { SideItems, Undo } from './side-prints.ts';
import { PART_ENTRIES } from './side-snapshot.ts';
import { readSideState, type SideStatements } from './side-tables.ts';

type TableRow = [
  itemId: string,
  side: string,
  levels: Buffer,
  listingCount: number | null,
  totalQuantity: number,
  fetchedAt: number,
  ingestedAt: number,
  sourceUpdatedAt: number | null,
  sourceTimeKind: string | null,
  originalCurrency: string,
];

function hasSideTable(db: Database.Database): boolean {
  const row = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'side_snapshots'`)
    .get();
  return row !== undefined;
}

function entryOfRow(row: TableRow, code: number): SideEntry {
  return {
    key: code * 2 + (row[1] === 'bid' ? 1 : 0),
    levels: row[2],
    listingCount: row[3],
    totalQuantity: row[4],
    fetchedAt: row[5],
    ingestedAt: row[6],
    sourceUpdatedAt: row[7],
    sourceTimeKind: row[8],
    originalCurrency: row[9],
  };
}

function copyTable(db: Database.Database, s: SideStatements, items: SideItems, undo: Undo): void {
  const chunks = db
    .prepare<[], [Game, MarketId]>('SELECT DISTINCT game, market FROM side_snapshots')
    .raw()
    .all();
  const page = db
    .prepare<[string, string, string, string, number], TableRow>(
      `SELECT item_id, side, levels, listing_count, total_quantity, fetched_at, ingested_at,
         source_updated_at, source_time_kind, original_currency
       FROM side_snapshots WHERE game = ? AND market = ? AND (item_id, side) > (?, ?)
       ORDER BY item_id, side LIMIT ?`,
    )
    .raw();
  const insertPart = db.prepare<[number, string, string, number, Buffer]>(
    'INSERT INTO side_parts (generation, game, market, part, entries) VALUES (?, ?, ?, ?, ?)',
  );
  const state = readSideState(s);
  const next = state.generation + 1;
  db.prepare('DELETE FROM side_parts').run();
  for (const [game, market] of chunks) {
    let last: [string, string] = ['', ''];
    for (let part = 0; ; part++) {
      const rows = page.all(game, market, ...last, PART_ENTRIES);
      if (rows.length === 0) break;
      const entries = rows.map((row) => entryOfRow(row, items.codeFor(game, row[0], undo)));
      insertPart.run(next, game, market, part, encodeEntries(entries));
      const final = rows[rows.length - 1]!;
      last = [final[0], final[1]];
    }
  }
  s.setState.run(next, state.logThrough);
}

/** Converts the table layout if this data dir has it; whether it did. */
export function convertSideTable(
  db: Database.Database,
  s: SideStatements,
  items: SideItems,
): boolean {
  const undo: Undo = [];
  const copied = db.transaction(() => {
    if (!hasSideTable(db)) return false;
    items.refresh();
    copyTable(db, s, items, undo);
    return true;
  });
  try {
    if (!copied.immediate()) return false;
  } catch (error) {
    for (const step of undo.reverse()) step();
    throw error;
  }
  db.transaction(() => {
    if (hasSideTable(db)) db.exec('DROP TABLE side_snapshots');
  }).immediate();
  return true;
}

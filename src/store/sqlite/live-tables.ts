/**
 * The SQLite side of the live-data tables: the stored exchange rates (replaced whole), and the
 * row shape of the `sales_stats` table of earlier releases (the markets' sales statistics are
 * in the live log since migration 11, live-log.ts; live-convert.ts reads the table once).
 */
import type Database from 'better-sqlite3';
import type { FxTable } from '../../domain/fx.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SalesWindow } from '../../domain/observation.ts';
import type { SalesStatsRecord } from '../../domain/quote.ts';

export type StatsRow = [
  game: Game,
  market: MarketId,
  itemId: string,
  window: SalesWindow,
  volume: number,
  minPrice: number | null,
  maxPrice: number | null,
  avgPrice: number | null,
  medianPrice: number | null,
  fetchedAt: number,
  ingestedAt: number,
  originalCurrency: string,
];

export function prepareLiveStatements(db: Database.Database) {
  return {
    clearRates: db.prepare('DELETE FROM fx_rates'),
    insertRate: db.prepare<[string, number, number, string]>(
      'INSERT INTO fx_rates (currency, usd_micro, as_of, source) VALUES (?, ?, ?, ?)',
    ),
    selectRates: db.prepare<
      [],
      { currency: string; usdMicro: number; asOf: number; source: string }
    >(
      'SELECT currency, usd_micro AS usdMicro, as_of AS asOf, source FROM fx_rates ORDER BY currency',
    ),
  };
}

export type LiveStatements = ReturnType<typeof prepareLiveStatements>;

export function statsFromRow(row: StatsRow): SalesStatsRecord {
  return {
    game: row[0],
    market: row[1],
    itemId: row[2],
    window: row[3],
    volume: row[4],
    minPrice: row[5],
    maxPrice: row[6],
    avgPrice: row[7],
    medianPrice: row[8],
    fetchedAt: row[9],
    ingestedAt: row[10],
    originalCurrency: row[11],
  };
}

export function saveRates(db: Database.Database, s: LiveStatements, table: FxTable): void {
  db.transaction(() => {
    s.clearRates.run();
    for (const [currency, rate] of Object.entries(table.usdMicroPerUnit)) {
      s.insertRate.run(currency, rate, table.asOf, table.source);
    }
  })();
}

export function loadRates(s: LiveStatements): FxTable | null {
  const rows = s.selectRates.all();
  const first = rows[0];
  if (!first) return null;
  return {
    asOf: first.asOf,
    source: first.source,
    usdMicroPerUnit: Object.fromEntries(rows.map((row) => [row.currency, row.usdMicro])),
  };
}

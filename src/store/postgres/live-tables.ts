/**
 * The PostgreSQL side of the live-data tables: the markets' sales statistics (latest per
 * item, market and window, one unnest() upsert inside writeBatch's transaction; an older fetch
 * never replaces a newer one) and the stored exchange rates (replaced whole, in one
 * transaction).
 */
import type { FxTable } from '../../domain/fx.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SalesWindow } from '../../domain/observation.ts';
import type { SalesStatsRecord } from '../../domain/quote.ts';
import { inTransaction, type Pool, type PoolClient } from './driver.ts';
import { columns, lastPerKey } from './rows.ts';

type StatsRow = [
  game: Game,
  market: MarketId,
  itemId: string,
  window: SalesWindow,
  volume: number,
  minPrice: string | null,
  maxPrice: string | null,
  avgPrice: string | null,
  medianPrice: string | null,
  fetchedAt: string,
  ingestedAt: string,
  originalCurrency: string,
];

const STATS_COLUMNS = `game, market, item_id, sales_window, volume, min_price, max_price,
  avg_price, median_price, fetched_at, ingested_at, original_currency`;

const UPSERT_STATS = `INSERT INTO sales_stats (${STATS_COLUMNS})
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::integer[],
    $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[],
    $12::text[])
  ON CONFLICT (game, market, item_id, sales_window) DO UPDATE SET
    volume = excluded.volume, min_price = excluded.min_price, max_price = excluded.max_price,
    avg_price = excluded.avg_price, median_price = excluded.median_price,
    fetched_at = excluded.fetched_at, ingested_at = excluded.ingested_at,
    original_currency = excluded.original_currency
  WHERE excluded.fetched_at >= sales_stats.fetched_at`;

const statsKey = (record: SalesStatsRecord): string =>
  `${record.game}\u0000${record.market}\u0000${record.itemId}\u0000${record.window}`;

export async function upsertSalesStats(
  client: PoolClient,
  records: readonly SalesStatsRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const values = columns(lastPerKey(records, statsKey), [
    ['text', (r) => r.game],
    ['text', (r) => r.market],
    ['text', (r) => r.itemId],
    ['text', (r) => r.window],
    ['number', (r) => r.volume],
    ['number', (r) => r.minPrice],
    ['number', (r) => r.maxPrice],
    ['number', (r) => r.avgPrice],
    ['number', (r) => r.medianPrice],
    ['number', (r) => r.fetchedAt],
    ['number', (r) => r.ingestedAt],
    ['text', (r) => r.originalCurrency],
  ]);
  await client.query({ name: 'upsert_sales_stats', text: UPSERT_STATS, values });
}

const toNumber = (value: string | null): number | null => (value === null ? null : Number(value));

export async function loadSalesStats(pool: Pool, game: Game): Promise<SalesStatsRecord[]> {
  const result = await pool.query<StatsRow>({
    name: 'select_sales_stats',
    text: `SELECT ${STATS_COLUMNS} FROM sales_stats WHERE game = $1`,
    values: [game],
    rowMode: 'array',
  });
  return result.rows.map((row) => ({
    game: row[0],
    market: row[1],
    itemId: row[2],
    window: row[3],
    volume: row[4],
    minPrice: toNumber(row[5]),
    maxPrice: toNumber(row[6]),
    avgPrice: toNumber(row[7]),
    medianPrice: toNumber(row[8]),
    fetchedAt: Number(row[9]),
    ingestedAt: Number(row[10]),
    originalCurrency: row[11],
  }));
}

export async function saveFxRates(pool: Pool, table: FxTable): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('DELETE FROM fx_rates');
    for (const [currency, rate] of Object.entries(table.usdMicroPerUnit)) {
      await client.query(
        'INSERT INTO fx_rates (currency, usd_micro, as_of, source) VALUES ($1, $2, $3, $4)',
        [currency, rate, table.asOf, table.source],
      );
    }
  });
}

export async function loadFxRates(pool: Pool): Promise<FxTable | null> {
  const result = await pool.query<{
    currency: string;
    usd_micro: string;
    as_of: string;
    source: string;
  }>('SELECT currency, usd_micro, as_of, source FROM fx_rates ORDER BY currency');
  const first = result.rows[0];
  if (!first) return null;
  return {
    asOf: Number(first.as_of),
    source: first.source,
    usdMicroPerUnit: Object.fromEntries(
      result.rows.map((row) => [row.currency, Number(row.usd_micro)]),
    ),
  };
}

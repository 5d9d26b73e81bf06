/**
 * The HistoryStore half of the SQLite store: range reads (history-scan.ts) over loose rows and
 * pages, upkeep (sqlite-history-upkeep.ts). An hour or a day not stored is merged from 10 minutes.
 */
import type Database from 'better-sqlite3';
import { MARKET_IDS } from '../../domain/markets.ts';
import type { Tier } from '../../pricing/rollup-buckets.ts';
import { ALL_SECTIONS, type HistoryStore, type SeriesKey } from '../history-store.ts';
import type { RollupRow } from '../../pricing/rollups.ts';
import type { SaleCount } from '../../pricing/rollup-volume.ts';
import { createSqliteBucketHistory } from './bucket-history.ts';
import { readWhenUnlocked } from './busy-retry.ts';
import { scanMerged, scanRange, type Scan } from './history-scan.ts';
import { createHistoryUpkeep } from './sqlite-history-upkeep.ts';
import type { StoreRollups } from './store-rollups.ts';

type Ready = () => StoreRollups;

export function createSqliteHistory(db: Database.Database, ready: Ready): Required<HistoryStore> {
  /** Visits a series' rows of a tier in one read transaction (packing may drop a table). */
  const scanSeries = db.transaction((key: SeriesKey, tier: Tier, scan: Scan) => {
    const { directory, statements } = ready();
    const id = directory.find(key.game, key.itemId, key.market);
    if (id === null) return;
    if (tier === '10m') scanRange(statements, id, tier, scan);
    else scanMerged(statements, id, tier, scan);
  });
  const read = (key: SeriesKey, tier: Tier, scan: Scan) =>
    ready()
      .flushOwn()
      .then(() => readWhenUnlocked(db, () => scanSeries(key, tier, scan)));

  return {
    async historyMarkets(game, itemId) {
      const found = ready().statements.seriesMarkets.all(game, itemId);
      return MARKET_IDS.filter((market) => found.some((row) => row.market === market));
    },
    async readRollups(key, tier, fromMs, toMs, sections = ALL_SECTIONS) {
      const rows: RollupRow[] = [];
      await read(key, tier, { fromMs, toMs, sections, visit: (row) => rows.push(row) });
      return rows;
    },
    async scanRollups(key, tier, fromMs, toMs, sections, visit, sketches = ALL_SECTIONS) {
      await read(key, tier, { fromMs, toMs, sections, visit, reuse: true, sketches });
    },
    async readSaleCounts(key, tier, fromMs, toMs) {
      const counts: SaleCount[] = [];
      const visit = (row: RollupRow) => {
        if (row.sales) counts.push({ start: row.start, units: row.sales.n });
      };
      await read(key, tier, { fromMs, toMs, visit, sections: ['sales'], reuse: true });
      return counts;
    },
    ...createHistoryUpkeep(db, ready),
    ...createSqliteBucketHistory(() => db),
  };
}

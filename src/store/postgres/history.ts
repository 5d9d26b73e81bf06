/**
 * The HistoryStore half of the PostgreSQL store: range reads of the rollup tables and the
 * retention pass, each after the fold it needs (rollup-folder.ts). A retention step is one DELETE of at most `maxRows` expired rows in
 * (series, start) order, resuming at the cursor's series; on the partitioned tiers the plan
 * only visits the months before the cutoff, so a step never scans the rows it keeps there.
 */
import { MARKET_IDS } from '../../domain/markets.ts';
import { TIER_MS } from '../../pricing/rollup-buckets.ts';
import { decodeSales, decodeSide } from '../rollup-codec.ts';
import {
  ALL_SECTIONS,
  type CompactionStep,
  type HistoryStore,
  type SeriesKey,
} from '../history-store.ts';
import { createPostgresBucketHistory } from './bucket-history.ts';
import type { Pool } from './driver.ts';
import { seriesName, type PostgresSeriesDirectory } from './history-series.ts';
import type { RollupFolder } from './rollup-folder.ts';
import {
  deleteExpired,
  selectRange,
  selectUnits,
  seriesMarkets,
  type RangeRow,
} from './history-statements.ts';

export function createPostgresHistory(
  ready: () => { db: Pool; directory: PostgresSeriesDirectory; folder: RollupFolder },
): HistoryStore {
  const seriesId = async (key: SeriesKey) => {
    const { db, directory, folder } = ready();
    await folder.settleOwn();
    return directory.find(db, seriesName(key.game, key.itemId, key.market));
  };

  return {
    ...createPostgresBucketHistory(() => ready().db),
    async historyMarkets(game, itemId) {
      const result = await ready().db.query<[string]>(seriesMarkets([game, itemId]));
      const found = new Set(result.rows.map((row) => row[0]));
      return MARKET_IDS.filter((market) => found.has(market));
    },
    async readRollups(key, tier, fromMs, toMs, sections = ALL_SECTIONS) {
      const id = await seriesId(key);
      if (id === null) return [];
      const result = await ready().db.query<RangeRow>(
        selectRange(tier, sections)([id, fromMs, toMs]),
      );
      return result.rows.map(([start, ask, bid, sales]) => ({
        start,
        ask: ask ? decodeSide('ask', ask, start) : null,
        bid: bid ? decodeSide('bid', bid, start) : null,
        sales: sales ? decodeSales(sales) : null,
      }));
    },
    async readSaleCounts(key, tier, fromMs, toMs) {
      const id = await seriesId(key);
      if (id === null) return [];
      const result = await ready().db.query<[number, number]>(
        selectUnits(tier)([id, fromMs, toMs]),
      );
      return result.rows.map(([start, units]) => ({ start, units }));
    },
    async deleteRollupsBefore(tier, beforeMs, step): Promise<CompactionStep> {
      const width = TIER_MS[tier];
      const cutoff = Math.floor(beforeMs / width) * width;
      const from = step.cursor === null ? 0 : Number(step.cursor);
      const maxRows = Math.max(1, step.maxRows);
      await ready().folder.settleBefore(cutoff);
      const result = await ready().db.query<[number]>(deleteExpired(tier)([from, cutoff, maxRows]));
      const deleted = result.rows.length;
      if (deleted < maxRows) return { deleted, cursor: null };
      const last = result.rows.reduce((most, [series]) => Math.max(most, series), from);
      return { deleted, cursor: String(last) };
    },
  };
}

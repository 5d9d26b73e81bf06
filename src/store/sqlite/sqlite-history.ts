/**
 * The HistoryStore half of the SQLite store: range reads of the rollup tables, which expand a
 * row standing for a run of buckets (run-collapse.ts) into those buckets, and the upkeep steps
 * of sqlite-history-upkeep.ts (retention and runs).
 */
import type Database from 'better-sqlite3';
import { MARKET_IDS } from '../../domain/markets.ts';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import { RollupCodecError, SectionReader } from '../rollup-codec.ts';
import {
  ALL_SECTIONS,
  type HistoryStore,
  type RollupSection,
  type SeriesKey,
} from '../history-store.ts';
import type { RollupRow, SidePartial } from '../../pricing/rollups.ts';
import type { SaleCount } from '../../pricing/rollup-volume.ts';
import { RANGE_HEADER_BYTES, SECTION_BITS } from './rollup-statements.ts';
import { createSqliteBucketHistory } from './bucket-history.ts';
import { createHistoryUpkeep } from './sqlite-history-upkeep.ts';
import type { StoreRollups } from './store-rollups.ts';

function rangeBounds(tier: Tier, fromMs: number, toMs: number): [number, number] {
  const width = TIER_MS[tier];
  return [Math.ceil(fromMs / width), Math.ceil(toMs / width)];
}

/** One row's worth of sections, refilled bucket after bucket by a scan. */
function reusableRow() {
  const partial = (): SidePartial => ({
    prices: { n: 0, sum: 0, min: 0, max: 0, sketch: [] },
    markets: [],
    lastAt: null,
  });
  return { ask: partial(), bid: partial(), sales: partial().prices };
}

export function createSqliteHistory(
  db: Database.Database,
  ready: () => Pick<StoreRollups, 'statements' | 'directory' | 'flushOwn' | 'rowsRewritten'>,
): Required<HistoryStore> {
  /** The series' id once this object's own journaled observations are folded. */
  const seriesId = async (key: SeriesKey) => {
    const { directory, flushOwn } = ready();
    await flushOwn();
    return directory.find(key.game, key.itemId, key.market);
  };

  const scan = (
    id: number | null,
    tier: Tier,
    fromMs: number,
    toMs: number,
    sections: readonly RollupSection[],
    visit: (row: RollupRow) => void,
    reuse: boolean,
    sketches: readonly RollupSection[] = ALL_SECTIONS,
  ) => {
    if (id === null) return;
    const [from, to] = rangeBounds(tier, fromMs, toMs);
    const width = TIER_MS[tier];
    const columns = ALL_SECTIONS.filter((name) => sections.includes(name));
    if (columns.length === 0) return;
    const statement = ready().statements.tiers[tier].selectRange(columns.join(','));
    const reused = reuse ? reusableRow() : null;
    const shared: RollupRow = { start: 0, ask: null, bid: null, sales: null };
    const reader = new SectionReader();
    const askSketch = sketches.includes('ask');
    const bidSketch = sketches.includes('bid');
    const packed = statement.get(id, id, from, from, to, from);
    if (!packed) return;
    let at = 0;
    let previous = -1;
    while (at < packed.length) {
      const first = packed.readUInt32BE(at);
      const end = first + packed.readUInt32BE(at + 4);
      if (first <= previous) throw new RollupCodecError('range read out of bucket order');
      previous = first;
      const present = packed[at + RANGE_HEADER_BYTES - 1]!;
      const sectionsAt = at + RANGE_HEADER_BYTES;
      let after = -1;
      for (let bucket = Math.max(first, from); bucket < Math.min(end, to); bucket += 1) {
        const row = reuse ? shared : { ...shared };
        row.start = bucket * width;
        reader.begin(packed, sectionsAt);
        row.ask =
          present & SECTION_BITS.ask ? reader.side('ask', row.start, reused?.ask, askSketch) : null;
        row.bid =
          present & SECTION_BITS.bid ? reader.side('bid', row.start, reused?.bid, bidSketch) : null;
        row.sales = present & SECTION_BITS.sales ? reader.sales(reused?.sales) : null;
        after = reader.offset();
        visit(row);
      }
      if (after < 0) throw new RollupCodecError('range read returned a row outside the range');
      at = after;
    }
  };

  return {
    async historyMarkets(game, itemId) {
      const found = new Set(
        ready()
          .statements.seriesMarkets.all(game, itemId)
          .map((row) => row[0]),
      );
      return MARKET_IDS.filter((market) => found.has(market));
    },
    async readRollups(key, tier, fromMs, toMs, sections = ALL_SECTIONS) {
      const rows: RollupRow[] = [];
      const id = await seriesId(key);
      scan(id, tier, fromMs, toMs, sections, (row) => rows.push(row), false);
      return rows;
    },
    async scanRollups(key, tier, fromMs, toMs, sections, visit, sketches) {
      scan(await seriesId(key), tier, fromMs, toMs, sections, visit, true, sketches);
    },
    async readSaleCounts(key, tier, fromMs, toMs) {
      const id = await seriesId(key);
      if (id === null) return [];
      const [from, to] = rangeBounds(tier, fromMs, toMs);
      const width = TIER_MS[tier];
      const counts: SaleCount[] = [];
      const rows = ready().statements.tiers[tier].selectUnits.all(id, id, from, from, to, from);
      for (const [first, run, units] of rows) {
        const end = Math.min(first + run, to);
        for (let bucket = Math.max(first, from); bucket < end; bucket += 1) {
          counts.push({ start: bucket * width, units });
        }
      }
      return counts;
    },
    ...createHistoryUpkeep(db, ready),
    ...createSqliteBucketHistory(() => db),
  };
}

/**
 * The HistoryStore half of the SQLite store: range reads of the rollup tables and the
 * retention pass. A pass walks the series in id order and deletes each one's expired buckets
 * with a primary-key range delete, so a step costs what it deletes (plus one seek per series),
 * never a scan of the rows it keeps. Each step is one short transaction that first takes the
 * history file's write lock; one that deleted anything empties this connection's row cache
 * (a fold thread's cache notices the history file's data_version move).
 */
import type Database from 'better-sqlite3';
import { MARKET_IDS } from '../../domain/markets.ts';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import {
  beginSections,
  nextSales,
  nextSide,
  RollupCodecError,
  sectionsOffset,
} from '../rollup-codec.ts';
import {
  ALL_SECTIONS,
  type CompactionStep,
  type HistoryStore,
  type RollupSection,
  type SeriesKey,
} from '../history-store.ts';
import type { RollupRow, SidePartial } from '../../pricing/rollups.ts';
import { RANGE_HEADER_BYTES, SECTION_BITS, type TierStatements } from './rollup-statements.ts';
import type { StoreRollups } from './store-rollups.ts';

/** Series examined per retention step at most (bounds a step that finds little to delete). */
const SERIES_PER_STEP = 2_000;

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

/** Deletes at most `limit` of a series' buckets below `cutoff`; true when none remain. */
function deleteSome(
  statements: TierStatements,
  series: number,
  cutoff: number,
  limit: number,
): { deleted: number; finished: boolean } {
  const beyond = statements.expiredAt.get(series, cutoff, limit);
  const bound = beyond ? beyond.bucket : cutoff;
  return { deleted: statements.deleteBefore.run(series, bound).changes, finished: !beyond };
}

export function createSqliteHistory(
  db: Database.Database,
  ready: () => Pick<StoreRollups, 'statements' | 'directory' | 'flushOwn' | 'rowsDeleted'>,
): Required<HistoryStore> {
  /** The series' id once this object's own journaled observations are folded. */
  const seriesId = async (key: SeriesKey) => {
    const { directory, flushOwn } = ready();
    await flushOwn();
    return directory.find(key.game, key.itemId, key.market);
  };

  const compactStep = (tier: Tier, cutoff: number, start: number, maxRows: number) => {
    const { statements } = ready();
    let deleted = 0;
    const ids = statements.seriesFrom.all(start, SERIES_PER_STEP).map((row) => row[0]);
    for (const id of ids) {
      const step = deleteSome(statements.tiers[tier], id, cutoff, maxRows - deleted);
      deleted += step.deleted;
      if (!step.finished) return { deleted, next: id };
      if (deleted >= maxRows) return { deleted, next: id + 1 };
    }
    const last = ids[ids.length - 1];
    return { deleted, next: ids.length < SERIES_PER_STEP || last === undefined ? null : last + 1 };
  };
  const compactInTransaction = db.transaction(
    (tier: Tier, cutoff: number, start: number, maxRows: number) => {
      ready().statements.lockHistory.run();
      return compactStep(tier, cutoff, start, maxRows);
    },
  );

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
    const askSketch = sketches.includes('ask');
    const bidSketch = sketches.includes('bid');
    const packed = statement.get(id, from, to);
    if (!packed) return;
    let at = 0;
    let previous = -1;
    while (at < packed.length) {
      const bucket = packed.readUInt32BE(at);
      if (bucket <= previous) throw new RollupCodecError('range read out of bucket order');
      previous = bucket;
      const present = packed[at + RANGE_HEADER_BYTES - 1]!;
      const row = reuse ? shared : { ...shared };
      row.start = bucket * width;
      beginSections(packed, at + RANGE_HEADER_BYTES);
      row.ask =
        present & SECTION_BITS.ask ? nextSide('ask', row.start, reused?.ask, askSketch) : null;
      row.bid =
        present & SECTION_BITS.bid ? nextSide('bid', row.start, reused?.bid, bidSketch) : null;
      row.sales = present & SECTION_BITS.sales ? nextSales(reused?.sales) : null;
      at = sectionsOffset();
      visit(row);
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
      return ready()
        .statements.tiers[tier].selectUnits.all(id, from, to)
        .map(([bucket, units]) => ({ start: bucket * width, units }));
    },
    async deleteRollupsBefore(tier, beforeMs, step): Promise<CompactionStep> {
      await ready().flushOwn();
      const cutoff = Math.floor(beforeMs / TIER_MS[tier]);
      const start = step.cursor === null ? 0 : Number(step.cursor);
      const result = compactInTransaction(tier, cutoff, start, Math.max(1, step.maxRows));
      if (result.deleted > 0) ready().rowsDeleted();
      return { deleted: result.deleted, cursor: result.next === null ? null : String(result.next) };
    },
  };
}

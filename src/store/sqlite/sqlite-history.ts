/**
 * The HistoryStore half of the SQLite store: range reads over the loose rows and the pages of
 * packed periods (rollup-pages.ts), merged in bucket order, and the upkeep steps of
 * sqlite-history-upkeep.ts (retention and packing). An hour is read as stored if it is, else
 * as the merge of its 10-minute buckets (stored-hours.ts).
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
import type { SectionSource } from './page-column-reader.ts';
import { PAGE_BUCKETS, SECTION_BITS, walkPage } from './rollup-pages.ts';
import { RANGE_HEADER_BYTES } from './rollup-statements.ts';
import { createSqliteBucketHistory } from './bucket-history.ts';
import { createHistoryUpkeep } from './sqlite-history-upkeep.ts';
import { hourMerger } from './stored-hours.ts';
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
    honourExpired = true,
  ) => {
    if (id === null) return;
    const [from, to] = rangeBounds(tier, fromMs, toMs);
    const width = TIER_MS[tier];
    const columns = ALL_SECTIONS.filter((name) => sections.includes(name));
    if (columns.length === 0) return;
    const statements = ready().statements.tiers[tier];
    const reused = reuse ? reusableRow() : null;
    const skipped = reusableRow();
    const shared: RollupRow = { start: 0, ask: null, bid: null, sales: null };
    const reader = new SectionReader();
    const askWanted = sections.includes('ask');
    const bidWanted = sections.includes('bid');
    const salesWanted = sections.includes('sales');
    const askSketch = sketches.includes('ask');
    const bidSketch = sketches.includes('bid');
    let previous = -1;
    /**
     * Reads the bucket's sections from `source` (the reader, or a page's columns); hands the
     * asked-for ones over in range.
     */
    const entry = (bucket: number, bits: number, lowest = from, source: SectionSource = reader) => {
      if (bucket <= previous) throw new RollupCodecError('range read out of bucket order');
      previous = bucket;
      const into = bucket < lowest || bucket >= to ? skipped : reused;
      const row = reuse ? shared : { ...shared };
      row.start = bucket * width;
      const side = (name: 'ask' | 'bid', wanted: boolean, withSketch: boolean) => {
        if (!(bits & SECTION_BITS[name])) return null;
        if (wanted) return source.side(name, row.start, into?.[name], withSketch);
        source.skipSide(name);
        return null;
      };
      row.ask = side('ask', askWanted, askSketch);
      row.bid = side('bid', bidWanted, bidSketch);
      row.sales = bits & SECTION_BITS.sales ? source.sales(into?.sales) : null;
      if (!salesWanted) row.sales = null;
      if (into !== skipped) visit(row);
    };
    const perPage = PAGE_BUCKETS[tier];
    const pages = statements.selectPages.all(
      id,
      Math.floor(from / perPage),
      Math.ceil(to / perPage),
    );
    let page = 0;
    /** Page buckets below the tier's expired mark are gone (expirePages). */
    const expired = honourExpired ? ready().statements.readExpired.get(tier) : 0;
    const lowest = Math.max(from, expired ?? 0);
    const pageEntry = (bucket: number, bits: number, source: SectionSource) =>
      entry(bucket, bits, lowest, source);
    const pagesBefore = (bucket: number) => {
      for (; page < pages.length && pages[page]![0] * perPage < bucket; page += 1) {
        walkPage(tier, pages[page]![0], pages[page]![1], reader, pageEntry);
      }
    };
    const packed = statements.selectRange(columns.join(',')).get(id, from, to) ?? Buffer.alloc(0);
    for (let at = 0; at < packed.length; at = reader.offset()) {
      const bucket = packed.readUInt32BE(at);
      pagesBefore(bucket);
      reader.begin(packed, at + RANGE_HEADER_BYTES);
      entry(bucket, packed[at + RANGE_HEADER_BYTES - 1]!);
    }
    pagesBefore(Number.MAX_SAFE_INTEGER);
  };

  /**
   * Hours in bucket order: each stored hour, else the merge of the hour's 10-minute buckets
   * (none below the hourly tier's expired mark).
   */
  const scanHours = (
    id: number | null,
    fromMs: number,
    toMs: number,
    sections: readonly RollupSection[],
    visit: (row: RollupRow) => void,
    sketches: readonly RollupSection[] = ALL_SECTIONS,
  ) => {
    if (id === null) return;
    const stored: RollupRow[] = [];
    scan(id, '1h', fromMs, toMs, sections, (row) => stored.push(row), false, sketches);
    const [from, to] = rangeBounds('1h', fromMs, toMs);
    const lowest = Math.max(from, ready().statements.readExpired.get('1h') ?? 0);
    let next = 0;
    const emitThrough = (start: number) => {
      while (next < stored.length && stored[next]!.start <= start) visit(stored[next++]!);
    };
    const hours = hourMerger((derived) => {
      emitThrough(derived.start);
      if (stored[next - 1]?.start !== derived.start) visit(derived);
    });
    const hour = TIER_MS['1h'];
    scan(id, '10m', lowest * hour, to * hour, sections, hours.add, true, sketches, false);
    hours.end();
    emitThrough(Number.MAX_SAFE_INTEGER);
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
      const keep = (row: RollupRow) => rows.push(row);
      if (tier === '1h') scanHours(id, fromMs, toMs, sections, keep);
      else scan(id, tier, fromMs, toMs, sections, keep, false);
      return rows;
    },
    async scanRollups(key, tier, fromMs, toMs, sections, visit, sketches) {
      const id = await seriesId(key);
      if (tier === '1h') scanHours(id, fromMs, toMs, sections, visit, sketches);
      else scan(id, tier, fromMs, toMs, sections, visit, true, sketches);
    },
    async readSaleCounts(key, tier, fromMs, toMs) {
      const counts: SaleCount[] = [];
      const id = await seriesId(key);
      const visit = (row: RollupRow) => {
        if (row.sales) counts.push({ start: row.start, units: row.sales.n });
      };
      if (tier === '1h') scanHours(id, fromMs, toMs, ['sales'], visit, []);
      else scan(id, tier, fromMs, toMs, ['sales'], visit, true, []);
      return counts;
    },
    ...createHistoryUpkeep(db, ready),
    ...createSqliteBucketHistory(() => db),
  };
}

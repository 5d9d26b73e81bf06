/**
 * Hours in the SQLite history: while the 10-minute tier holds an hour, the hour is not stored
 * but read as the merge of its six 10-minute buckets (exact: rollups.ts). Only when retention
 * removes an hour's 10-minute buckets is the hour written, as a loose 1h row (packed later as
 * usual), in the same transaction as the removal. A stored hour always wins over the merge: the
 * fold keeps merging late data into it (rollup-folder.ts), and data dirs of the layout that
 * stored every hour stay as they are.
 */
import { TIER_MS } from '../../pricing/rollup-buckets.ts';
import { emptyRow, mergeRow, type RollupRow } from '../../pricing/rollups.ts';
import {
  decodeSales,
  decodeSide,
  encodeSales,
  encodeSide,
  SectionReader,
} from '../rollup-codec.ts';
import { PAGE_BUCKETS, pageEntries, SECTION_BITS, unpackPage, walkPage } from './rollup-pages.ts';
import type { RollupStatements, RowOfPeriod, TierStatements } from './rollup-statements.ts';

/** 10-minute buckets per hour. */
export const TENS_PER_HOUR = TIER_MS['1h'] / TIER_MS['10m'];

/** Hour and day rows never carry lastAt (only per-market 10-minute buckets dedupe). */
export function dropLastAt(row: RollupRow): void {
  if (row.ask) row.ask.lastAt = null;
  if (row.bid) row.bid.lastAt = null;
}

/**
 * Merges 10-minute rows, given in bucket order, into hours; each hour goes to `done` once its
 * last row is in (`end()` hands over the last). The one rule for a derived hour, whether it is
 * read (sqlite-history.ts) or stored.
 */
export function hourMerger(done: (hour: RollupRow) => void) {
  let current: RollupRow | null = null;
  const end = () => {
    if (current === null) return;
    const hour = current;
    current = null;
    dropLastAt(hour);
    done(hour);
  };
  const add = (row: RollupRow) => {
    const start = Math.floor(row.start / TIER_MS['1h']) * TIER_MS['1h'];
    if (current?.start !== start) {
      end();
      current = emptyRow(start);
    }
    mergeRow(current!, row);
  };
  return { add, end };
}

/** The hours of [from, to) stored as loose 1h rows or in 1h pages (packed: their periods). */
function storedHours(statements: TierStatements, series: number, from: number, to: number) {
  const hours = new Set<number>();
  const packed = new Set<number>();
  for (const [bucket] of statements.selectRows.all(series, from, to)) hours.add(bucket);
  const perPage = PAGE_BUCKETS['1h'];
  const pages = statements.selectPages.all(
    series,
    Math.floor(from / perPage),
    Math.ceil(to / perPage),
  );
  for (const [period, page] of pages) {
    packed.add(period);
    for (const [bucket] of pageEntries('1h', period, page)) {
      if (bucket >= from && bucket < to) hours.add(bucket);
    }
  }
  return { hours, packed };
}

function decodeRow(stored: RowOfPeriod): RollupRow {
  const start = stored[0] * TIER_MS['10m'];
  return {
    start,
    ask: stored[1] ? decodeSide('ask', stored[1], start) : null,
    bid: stored[2] ? decodeSide('bid', stored[2], start) : null,
    sales: stored[3] ? decodeSales(stored[3]) : null,
  };
}

/**
 * Every 10-minute bucket of [from, to) a series holds, loose or packed (expired or not); loose
 * rows of the `skipped` hours are not decoded.
 */
function tensOf(
  statements: TierStatements,
  series: number,
  from: number,
  to: number,
  skipped: ReadonlySet<number>,
) {
  const rows = statements.selectRows
    .all(series, from, to)
    .filter(([bucket]) => !skipped.has(Math.floor(bucket / TENS_PER_HOUR)))
    .map(decodeRow);
  const perPage = PAGE_BUCKETS['10m'];
  const reader = new SectionReader();
  const pages = statements.selectPages.all(
    series,
    Math.floor(from / perPage),
    Math.ceil(to / perPage),
  );
  for (const [period, page] of pages) {
    walkPage('10m', period, page, reader, (bucket, bits, source) => {
      const start = bucket * TIER_MS['10m'];
      const row: RollupRow = {
        start,
        ask: bits & SECTION_BITS.ask ? source.side('ask', start) : null,
        bid: bits & SECTION_BITS.bid ? source.side('bid', start) : null,
        sales: bits & SECTION_BITS.sales ? source.sales() : null,
      };
      if (bucket >= from && bucket < to) rows.push(row);
    });
  }
  return rows;
}

/**
 * Stores the hours that hold a series' 10-minute buckets in [from, to) (10-minute bucket
 * indexes), each merged from ALL its 10-minute buckets, unless already stored or below the
 * hourly tier's expired mark. Call inside the write transaction that removes those buckets.
 * Returns the highest hour written, or -1.
 */
export function storeHoursOf(
  statements: RollupStatements,
  series: number,
  from: number,
  to: number,
): number {
  const hourly = statements.tiers['1h'];
  const first = Math.max(Math.floor(from / TENS_PER_HOUR), statements.readExpired.get('1h') ?? 0);
  const end = Math.ceil(to / TENS_PER_HOUR);
  if (first >= end) return -1;
  const stored = storedHours(hourly, series, first, end);
  if (stored.hours.size === end - first) return -1;
  const merged: RollupRow[] = [];
  const [tensFrom, tensTo] = [first * TENS_PER_HOUR, end * TENS_PER_HOUR];
  const tens = tensOf(statements.tiers['10m'], series, tensFrom, tensTo, stored.hours);
  const hours = hourMerger((hour) => merged.push(hour));
  for (const row of tens.sort((a, b) => a.start - b.start)) {
    if (!stored.hours.has(Math.floor(row.start / TIER_MS['1h']))) hours.add(row);
  }
  hours.end();
  let highest = -1;
  for (const row of merged) {
    const hour = row.start / TIER_MS['1h'];
    if (stored.packed.has(Math.floor(hour / PAGE_BUCKETS['1h']))) {
      unpackPage(hourly, '1h', series, hour);
      stored.packed.delete(Math.floor(hour / PAGE_BUCKETS['1h']));
    }
    const ask = row.ask ? encodeSide('ask', row.ask, row.start) : null;
    const bid = row.bid ? encodeSide('bid', row.bid, row.start) : null;
    const sales = row.sales ? encodeSales(row.sales) : null;
    hourly.upsertRow.run(series, hour, ask, bid, sales, row.sales ? row.sales.n : null);
    highest = Math.max(highest, hour);
  }
  if (highest >= 0) statements.foldedBuckets.run(-1, highest, -1);
  return highest;
}

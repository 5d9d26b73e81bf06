/**
 * The range scans of the SQLite history, for reads (in a read transaction: packing may drop a
 * table) and stored merges: a tier's buckets from pages or loose rows in bucket order, hours and
 * days as stored or merged (docs/history-storage.md, "SQLite layout", "Derived hours and days").
 */
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import { emptyRow, mergeRow, type RollupRow } from '../../pricing/rollups.ts';
import { ALL_SECTIONS, type RollupSection } from '../history-store.ts';
import { RollupCodecError, SectionReader } from '../rollup-codec.ts';
import { walkPage } from './rollup-pages.ts';
import { blankSide, PAGE_BUCKETS, SECTION_BITS, type SectionSource } from './page-format.ts';
import { chunkKey, chunkRow } from './rollup-chunks.ts';
import { CHUNK_PIECE, RANGE_HEADER_BYTES, type RollupStatements } from './rollup-statements.ts';

/** The tiers derived from the 10-minute buckets until they are stored (stored-merges.ts). */
export type MergedTier = '1h' | '1d';

const reusableRow = () => ({ ask: blankSide(), bid: blankSide(), sales: blankSide().prices });

/** What a scan reads of a series' buckets in [fromMs, toMs), and whom it hands them to. */
export interface Scan {
  fromMs: number;
  toMs: number;
  sections: readonly RollupSection[];
  visit: (row: RollupRow) => void;
  /** The sections read with their sketches (default: all). */
  sketches?: readonly RollupSection[];
  /** One row refilled for every bucket: the visitor must not keep it (default false). */
  reuse?: boolean;
  /** Page buckets below the tier's expired mark are gone, expirePages (default true). */
  honourExpired?: boolean;
  /** Handed each page instead of walking it; `walk` walks it (default: walk). */
  page?: (period: number, page: Buffer, walk: () => void) => void;
  /** scanDerived: skips whole packed days this says are stored, takes others from cachedDays. */
  storedDay?: (day: number) => boolean;
  /** scanMerged: where the hours or days merged from 10 minutes go instead of `visit`. */
  derived?: (row: RollupRow) => void;
}

/** Visits a series' buckets of a tier in order with the asked-for sections. */
export function scanRange(all: RollupStatements, series: number, tier: Tier, scan: Scan): void {
  const { sections, visit, sketches = ALL_SECTIONS, reuse = false } = scan;
  const width = TIER_MS[tier];
  const [from, to] = [Math.ceil(scan.fromMs / width), Math.ceil(scan.toMs / width)];
  const columns = ALL_SECTIONS.filter((name) => sections.includes(name));
  if (columns.length === 0) return;
  const statements = all.tiers[tier];
  const reused = reuse ? reusableRow() : null;
  const skipped = reusableRow();
  const shared: RollupRow = { start: 0, ask: null, bid: null, sales: null };
  const reader = new SectionReader();
  const expired = scan.honourExpired === false ? 0 : all.readExpired.get(tier);
  const lowest = Math.max(from, expired ?? 0);
  let previous = -1;
  /** Visits a bucket in [first, to) (a page's first is its lowest not expired), reads past others. */
  const entry = (bucket: number, bits: number, source: SectionSource, first = lowest) => {
    if (bucket <= previous) throw new RollupCodecError('range read out of bucket order');
    previous = bucket;
    const into = bucket < first || bucket >= to ? skipped : reused;
    const row = reuse ? shared : { ...shared };
    row.start = bucket * width;
    const side = (name: 'ask' | 'bid') => {
      if (!(bits & SECTION_BITS[name])) return null;
      const withSketch = sketches.includes(name);
      if (sections.includes(name)) return source.side(name, row.start, into?.[name], withSketch);
      source.skipSide(name);
      return null;
    };
    row.ask = side('ask');
    row.bid = side('bid');
    row.sales = bits & SECTION_BITS.sales ? source.sales(into?.sales) : null;
    if (!sections.includes('sales')) row.sales = null;
    if (into !== skipped) visit(row);
  };
  const perPage = PAGE_BUCKETS[tier];
  const periods = { series, from: Math.floor(from / perPage), to: Math.ceil(to / perPage) };
  const pages = statements.selectPages.all(periods);
  let page = 0;
  const pagesBefore = (bucket: number) => {
    for (; page < pages.length && pages[page]!.period * perPage < bucket; page += 1) {
      const { period, data } = pages[page]!;
      const walk = () => walkPage(tier, period, data, entry);
      if (scan.page) scan.page(period, data, walk);
      else walk();
    }
  };
  for (const period of statements.loose.periods()) {
    if (period * perPage >= to) break;
    if ((period + 1) * perPage <= from || pages.some((paged) => paged.period === period)) continue;
    const select = statements.loose.of(period * perPage)!.selectRange(columns.join(','));
    const rows = select.get({ series, from, to, chunk: chunkKey(series) });
    for (let at = 0; rows && at < rows.length;) {
      const [bucket, bits] = [rows.readUInt32BE(at), rows[at + RANGE_HEADER_BYTES - 1]!];
      pagesBefore(bucket);
      if (bits !== CHUNK_PIECE) {
        entry(bucket, bits, reader.begin(rows, at + RANGE_HEADER_BYTES), from);
        at = reader.offset();
        continue;
      }
      const start = at + RANGE_HEADER_BYTES + 4;
      at = start + rows.readUInt32BE(start - 4);
      const found = chunkRow(chunkKey(series), rows.subarray(start, at), series);
      if (found) entry(bucket, found.bits, reader.begin(found.body, found.at), from);
    }
  }
  pagesBefore(Number.MAX_SAFE_INTEGER);
}

/** Merges derived from whole packed days, least recently read first (a page never changes). */
const cachedDays = new Map<string, { page: Buffer; merged: RollupRow[] }>();
const CACHED_DAYS = 256;
const DAY = TIER_MS['10m'] * PAGE_BUCKETS['10m'];

/**
 * Visits the hours or days of [fromMs, toMs) in order, each merged from all its 10-minute buckets
 * (expired too), lastAt dropped: the one rule for a derived bucket, read or stored.
 */
export function scanDerived(all: RollupStatements, series: number, tier: MergedTier, scan: Scan) {
  const width = TIER_MS[tier];
  let current: RollupRow | null = null;
  let out = scan.visit;
  const end = () => {
    if (current?.ask) current.ask.lastAt = null;
    if (current?.bid) current.bid.lastAt = null;
    if (current !== null) out(current);
    current = null;
  };
  const add = (row: RollupRow) => {
    const start = Math.floor(row.start / width) * width;
    if (current?.start === start) return void mergeRow(current, row);
    end();
    current = mergeRow(emptyRow(start), row);
  };
  const page = (period: number, blob: Buffer, walk: () => void) => {
    const whole = period * DAY >= scan.fromMs && (period + 1) * DAY <= scan.toMs;
    if (!scan.storedDay || !whole) return walk();
    if (scan.storedDay(period)) return;
    end();
    const key = `${tier}/${series}/${period}/${scan.sections}/${scan.sketches}`;
    let day = cachedDays.get(key);
    cachedDays.delete(key);
    if (!day?.page.equals(blob)) {
      day = { page: blob, merged: [] };
      out = day.merged.push.bind(day.merged);
      walk();
      end();
      out = scan.visit;
    }
    cachedDays.set(key, day);
    if (cachedDays.size > CACHED_DAYS) cachedDays.delete(cachedDays.keys().next().value!);
    for (const row of day.merged) out(scan.reuse ? row : mergeRow(emptyRow(row.start), row));
  };
  scanRange(all, series, '10m', { ...scan, visit: add, reuse: true, honourExpired: false, page });
  end();
}

/** Hours or days in bucket order: each stored one, else the merge of its 10-minute buckets (none
 * below the tier's expired mark, to `derived` if given). The 10-minute scan starts at the
 * first one not stored and skips the pages of stored days. */
export function scanMerged(all: RollupStatements, series: number, tier: MergedTier, scan: Scan) {
  const width = TIER_MS[tier];
  const stored: RollupRow[] = [];
  scanRange(all, series, tier, { ...scan, visit: (row) => stored.push(row), reuse: false });
  const starts = new Set(stored.map((row) => row.start));
  const [from, to] = [Math.ceil(scan.fromMs / width), Math.ceil(scan.toMs / width)];
  let lowest = Math.max(from, all.readExpired.get(tier) ?? 0);
  while (lowest < to && starts.has(lowest * width)) lowest += 1;
  const storedDay = (day: number) => tier === '1d' && starts.has(day * DAY);
  let next = 0;
  const emitThrough = (start: number) => {
    while (next < stored.length && stored[next]!.start <= start) scan.visit(stored[next++]!);
  };
  const visit = (row: RollupRow) => {
    emitThrough(row.start);
    if (stored[next - 1]?.start !== row.start) (scan.derived ?? scan.visit)(row);
  };
  const range = { fromMs: lowest * width, toMs: to * width };
  scanDerived(all, series, tier, { ...scan, ...range, visit, storedDay });
  emitThrough(Number.MAX_SAFE_INTEGER);
}

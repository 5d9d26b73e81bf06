/**
 * Pages: a settled period of a series' loose rows packed into one deflated page, row-major or in
 * its column form (page-columns.ts), whichever is smaller; a fold unpacks it for late data
 * (docs/history-storage.md, "SQLite layout").
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Tier } from '../../pricing/rollup-buckets.ts';
import type { SidePartial } from '../../pricing/rollups.ts';
import { encodeSales, encodeSide, RollupCodecError, SectionReader } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { ColumnSections, toColumns } from './page-columns.ts';
import { chunkKey, decodeChunk } from './rollup-chunks.ts';
import { PAGE_BUCKETS, SECTION_BITS, type PageEntry, type PageVisit } from './page-format.ts';
import type { SeriesRange, TierStatements } from './rollup-statements.ts';

/** A column page's first byte, which no raw deflate stream starts with (block type 11, reserved);
 * column pages before TOP_FROM_MAX_MARK stored a bid tally's top from the minimum. */
const [COLUMNS_MARK, TOP_FROM_MAX_MARK] = [0x07, 0x06];

/** The row-major body of `entries` (buckets of one period, ascending). */
export function pageRows(tier: Tier, period: number, entries: readonly PageEntry[]): Buffer {
  const body = new VarintWriter(1024);
  let previous = period * PAGE_BUCKETS[tier] - 1;
  for (const [bucket, ask, bid, sales] of entries) {
    body.put(bucket - previous - 1);
    const bits = (ask ? SECTION_BITS.ask : 0) | (bid ? SECTION_BITS.bid : 0);
    body.put(bits | (sales ? SECTION_BITS.sales : 0));
    for (const section of [ask, bid, sales]) if (section) body.putBytes(section);
    previous = bucket;
  }
  return body.result();
}

/** The page of `entries`: the column form if it is smaller and gives the body back, else the
 * row-major one (also for sections the codec cannot read). */
export function encodePage(tier: Tier, period: number, entries: readonly PageEntry[]): Buffer {
  const rows = pageRows(tier, period, entries);
  const inRows = deflateRawSync(rows);
  try {
    const page = Buffer.concat([Buffer.of(TOP_FROM_MAX_MARK), deflateRawSync(toColumns(rows))]);
    if (inRows.length <= page.length) return inRows;
    return pageRows(tier, period, pageEntries(tier, period, page)).equals(rows) ? page : inRows;
  } catch (error) {
    if (error instanceof RollupCodecError) return inRows;
    throw error;
  }
}

/** Hands `visit` each bucket of a page with the source of its sections (a SectionReader at them,
 * or the page's columns), which it must read past. */
export function walkPage(tier: Tier, period: number, page: Uint8Array, visit: PageVisit): void {
  const first = period * PAGE_BUCKETS[tier];
  if (page[0] === COLUMNS_MARK || page[0] === TOP_FROM_MAX_MARK) {
    const columns = inflateRawSync(page.subarray(1));
    return new ColumnSections(columns, page[0] === TOP_FROM_MAX_MARK).walk(first, visit);
  }
  const reader = new SectionReader().begin(inflateRawSync(page));
  for (let bucket = first - 1; reader.offset() < reader.bytes().length;) {
    bucket += 1 + reader.next();
    visit(bucket, reader.next(), reader);
  }
}

const encoderAt0 = (side: 'ask' | 'bid') => (partial: SidePartial) => encodeSide(side, partial, 0);

/** A page's buckets with their sections' bytes: as stored in a row-major page, re-encoded from
 * the column form. */
export function pageEntries(tier: Tier, period: number, page: Uint8Array): PageEntry[] {
  const entries: PageEntry[] = [];
  walkPage(tier, period, page, (bucket, bits, source) => {
    const section = <T>(bit: number, read: () => T, encode: (value: T) => Buffer) => {
      if (!(bits & bit)) return null;
      if (!(source instanceof SectionReader)) return encode(read());
      const start = source.offset();
      read();
      return Buffer.from(source.bytes().subarray(start, source.offset()));
    };
    const ask = section(SECTION_BITS.ask, () => source.side('ask', 0), encoderAt0('ask'));
    const bid = section(SECTION_BITS.bid, () => source.side('bid', 0), encoderAt0('bid'));
    const sales = section(SECTION_BITS.sales, () => source.sales(), encodeSales);
    entries.push([bucket, ask, bid, sales]);
  });
  return entries;
}

/** Turns the page of the period holding `bucket`, if any, back into loose rows with a marker row
 * (bucket -1) that has the packing pass pack the series again. In a write transaction. */
export function unpackPage(tables: TierStatements, tier: Tier, series: number, bucket: number) {
  const period = Math.floor(bucket / PAGE_BUCKETS[tier]);
  const [found] = tables.selectPages.all({ series, from: period, to: period + 1 });
  if (found === undefined) return;
  const rows = tables.loose.of(bucket, true)!;
  for (const entry of pageEntries(tier, period, found.data)) rows.upsertRow.run(series, ...entry);
  rows.upsertRow.run(series, -1, null, null, null);
  tables.deletePage.run(series, period);
}

/**
 * Packs the loose rows of series [series, last) in buckets [from, to) (one period), with the
 * entries of their chunks (rollup-chunks.ts) that have no row of their own, into a page per series,
 * `afterPack` after each; returns the rows packed (they stay: a page wins over them).
 */
export function packSeriesRange(
  statements: TierStatements,
  tier: Tier,
  range: SeriesRange,
  afterPack?: (series: number, from: number, to: number) => void,
): number {
  const loose = statements.loose.of(range.from)!;
  const rows = loose.selectSeriesRange.all(range);
  const own = new Set(rows.map(([series, bucket]) => `${series}/${bucket}`));
  const chunks = { ...range, series: chunkKey(range.last - 1), last: chunkKey(range.series) + 1 };
  for (const [key, bucket, blob] of loose.selectSeriesRange.all(chunks))
    for (const [series, entry] of decodeChunk(key, blob!))
      if (series >= range.series && series < range.last && !own.has(`${series}/${bucket}`))
        rows.push([series, bucket, ...entry]);
  rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const period = Math.floor(range.from / PAGE_BUCKETS[tier]);
  for (let at = 0, end = 0; at < rows.length; at = end) {
    const [series] = rows[at]!;
    while (end < rows.length && rows[end]![0] === series) end++;
    const entries = rows.slice(at, end).map(([, ...entry]) => entry);
    statements.insertPage.run(series, period, encodePage(tier, period, entries));
    afterPack?.(series, range.from, range.to);
  }
  return rows.length;
}

/**
 * Deletes the oldest pages whose whole period ended by `cutoff` (key order) until about `limit`
 * buckets, `beforeDelete` first for each; returns the buckets deleted and whether more remain.
 */
export function expirePages(
  statements: TierStatements,
  tier: Tier,
  cutoff: number,
  limit: number,
  beforeDelete?: (series: number, from: number, to: number) => void,
): { deleted: number; more: boolean } {
  const width = PAGE_BUCKETS[tier];
  const pages = statements.expiredPages.before.all(Math.floor(cutoff / width), limit + 1);
  let [deleted, done] = [0, 0];
  for (; done < pages.length && deleted < limit; done += 1) {
    const [period, series, page] = pages[done]!;
    deleted += pageEntries(tier, period, page).length;
    beforeDelete?.(series, period * width, (period + 1) * width);
  }
  if (done > 0) statements.expiredPages.through.run(pages[done - 1]![0], pages[done - 1]![1]);
  return { deleted, more: done < pages.length };
}

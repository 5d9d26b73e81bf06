/**
 * The PostgreSQL rollup journal's body: what a batch adds to the rollups, as varints, so a
 * batch appends one short row (rollup_journal, migration 9) instead of rewriting six rollup
 * rows per observation. The fold (rollup-fold.ts) decodes bodies in journal order and merges
 * them into the rows once per closed 10-minute bucket.
 *
 * Per entry: kind (0 ask, 1 bid, 2 sale), market code, market series, aggregate series,
 * price, size (sales: units), quantity (bids' totalQuantity; else 0), at − the body's base.
 */
import { marketCode, marketOfCode } from '../../domain/market-codes.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { bucketStart, TIER_MS } from '../../pricing/rollup-buckets.ts';
import { sideObservation } from '../../pricing/rollups.ts';
import { SectionReader } from '../rollup-codec.ts';
import { VarintWriter } from '../varint-writer.ts';
import { seriesName, seriesNameKey } from './history-series.ts';

/** Entries per journal row at most, so one fold step stays bounded whatever the batch. */
export const ENTRIES_PER_ROW = 20_000;

const KINDS = ['ask', 'bid', 'sale'] as const;
export type EntryKind = (typeof KINDS)[number];

export interface JournalEntry {
  kind: EntryKind;
  market: MarketId;
  /** The market's series and the item's aggregate series (history_series ids). */
  own: number;
  all: number;
  price: number;
  /** Sides: the observed quoteSize; sales: units sold. */
  size: number;
  quantity: number;
  at: number;
}

/** One journal row to insert: its entries' time span and body. */
export interface JournalRow {
  /** The earliest entry's time; entries store their time above it. */
  baseAt: number;
  /** End of the latest entry's 10-minute bucket: the fold takes the row once it has passed. */
  closesAt: number;
  entries: number;
  body: Buffer;
}

/**
 * Bucket starts are stored as epoch_ms (safe integers): a time so close to −2^53 that its day
 * would start beyond that range (about 285,000 BC) has no bucket and stays out of the rollups.
 */
const hasBuckets = (at: number) => Number.isSafeInteger(bucketStart(at, '1d'));

type SeriesIds = ReadonlyMap<string, number>;

/** The batch's rollup entries, sides first then new sales, in batch order. */
export function journalEntries(
  sides: readonly SideSnapshot[],
  newSales: readonly SaleRecord[],
  ids: SeriesIds,
): JournalEntry[] {
  const series = (record: SideSnapshot | SaleRecord) => ({
    own: ids.get(seriesNameKey(seriesName(record.game, record.itemId, record.market)))!,
    all: ids.get(seriesNameKey(seriesName(record.game, record.itemId, null)))!,
  });
  const entries: JournalEntry[] = [];
  for (const side of sides) {
    const observation = sideObservation(side);
    if (!observation || !hasBuckets(observation.at)) continue;
    entries.push({
      kind: observation.side,
      ...series(side),
      market: observation.market,
      price: observation.price,
      size: observation.size,
      quantity: observation.quantity,
      at: observation.at,
    });
  }
  for (const sale of newSales) {
    if (!hasBuckets(sale.soldAt)) continue;
    entries.push({
      kind: 'sale',
      ...series(sale),
      market: sale.market,
      price: sale.price,
      size: sale.quantity,
      quantity: 0,
      at: sale.soldAt,
    });
  }
  return entries;
}

/** The series a batch's rollups need (ensure them in the batch's transaction). */
export function journalSeries(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]) {
  return [...sides, ...newSales].flatMap((record) => [
    seriesName(record.game, record.itemId, record.market),
    seriesName(record.game, record.itemId, null),
  ]);
}

function encodeRow(entries: readonly JournalEntry[]): JournalRow {
  let baseAt = Infinity;
  let lastAt = -Infinity;
  for (const { at } of entries) {
    baseAt = Math.min(baseAt, at);
    lastAt = Math.max(lastAt, at);
  }
  const writer = new VarintWriter(entries.length * 16);
  const put = (value: number) => {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`rollup journal: ${value} is not a count or a price`);
    }
    writer.put(value);
  };
  for (const entry of entries) {
    put(KINDS.indexOf(entry.kind));
    put(marketCode(entry.market));
    put(entry.own);
    put(entry.all);
    put(entry.price);
    put(entry.size);
    put(entry.quantity);
    put(entry.at - baseAt);
  }
  const closesAt = Math.min(bucketStart(lastAt, '10m') + TIER_MS['10m'], Number.MAX_SAFE_INTEGER);
  return { baseAt, closesAt, entries: entries.length, body: Buffer.from(writer.result()) };
}

/** The entries as journal rows of at most ENTRIES_PER_ROW entries each. */
export function journalRows(entries: readonly JournalEntry[]): JournalRow[] {
  const rows: JournalRow[] = [];
  for (let from = 0; from < entries.length; from += ENTRIES_PER_ROW) {
    rows.push(encodeRow(entries.slice(from, from + ENTRIES_PER_ROW)));
  }
  return rows;
}

/** Hands each entry of a body to `visit`, in the order they were journaled. */
export function readJournalRow(
  baseAt: number,
  body: Uint8Array,
  visit: (entry: JournalEntry) => void,
): void {
  const reader = new SectionReader().begin(body);
  while (reader.offset() < body.length) {
    const kind = KINDS[reader.next()];
    const market = marketOfCode(reader.next());
    if (kind === undefined || market === undefined) throw new Error('bad rollup journal entry');
    visit({
      kind,
      market,
      own: reader.next(),
      all: reader.next(),
      price: reader.next(),
      size: reader.next(),
      quantity: reader.next(),
      at: baseAt + reader.next(),
    });
  }
}

/**
 * Maintains the history rollups inside writeBatch's PostgreSQL transaction, with the same
 * rules as SQLite (src/pricing/rollups.ts): every counted side snapshot and every newly stored
 * sale is merged into its market's series and the item's aggregate, at 10m, 1h and 1d.
 *
 * Set-based read-modify-write: the batch's series are created in one statement, their lock
 * stripes taken in one (ascending, so writers in other processes never deadlock on them), every
 * touched row of every tier read in one, merged in memory by the pure rollup math, and the
 * changed rows written back with one unnest() upsert per tier, carrying only their changed
 * sections. A row nothing changed in (a snapshot already counted) is not written at all.
 */
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { bucketStart, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import {
  emptyRow,
  recordSale,
  recordSide,
  sideObservation,
  type RollupRow,
  type RowLookup,
  type Scope,
} from '../../pricing/rollups.ts';
import { decodeSales, decodeSide, encodeSales, encodeSide } from '../rollup-codec.ts';
import { arrayLiteral } from './array-literal.ts';
import type { Queryable } from './driver.ts';
import {
  lockStripes,
  selectRollupRows,
  upsertRollupRows,
  type StoredRollupRow,
} from './history-statements.ts';
import { seriesName, seriesNameKey, type PostgresSeriesDirectory } from './history-series.ts';

/** Lock stripes: series map onto this many advisory locks (bounds a batch's lock count). */
export const LOCK_STRIPES = 256;

const DIRTY_ASK = 1;
const DIRTY_BID = 2;
const DIRTY_SALES = 4;

interface Slot {
  tier: Tier;
  series: number;
  row: RollupRow;
  dirty: number;
}

type RollupRecord = SideSnapshot | SaleRecord;
interface Entry {
  record: RollupRecord;
  at: number;
  apply: (rows: RowLookup) => number;
}

const slotKey = (tier: number, series: number, start: number) => `${tier}:${series}:${start}`;

/**
 * Bucket starts are stored as epoch_ms (safe integers): a time so close to −2^53 that its day
 * would start beyond that range (about 285,000 BC) has no bucket and stays out of the rollups.
 */
const hasBuckets = (at: number) => Number.isSafeInteger(bucketStart(at, '1d'));

function entriesOf(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): Entry[] {
  const entries: Entry[] = [];
  for (const side of sides) {
    const observation = sideObservation(side);
    if (!observation || !hasBuckets(observation.at)) continue;
    const bit = observation.side === 'ask' ? DIRTY_ASK : DIRTY_BID;
    entries.push({
      record: side,
      at: observation.at,
      apply: (rows) => (recordSide(rows, observation) ? bit : 0),
    });
  }
  for (const sale of newSales) {
    if (!hasBuckets(sale.soldAt)) continue;
    entries.push({
      record: sale,
      at: sale.soldAt,
      apply: (rows) => {
        recordSale(rows, sale.price, sale.quantity);
        return DIRTY_SALES;
      },
    });
  }
  return entries;
}

function seriesOf(record: RollupRecord, scope: Scope, ids: ReadonlyMap<string, number>): number {
  const market = scope === 'market' ? record.market : null;
  return ids.get(seriesNameKey(seriesName(record.game, record.itemId, market)))!;
}

function decodeStored([, , start, ask, bid, sales]: StoredRollupRow): RollupRow {
  return {
    start,
    ask: ask ? decodeSide('ask', ask, start) : null,
    bid: bid ? decodeSide('bid', bid, start) : null,
    sales: sales ? decodeSales(sales) : null,
  };
}

/** Every row the entries land in, keyed by slotKey, read in one statement. */
async function loadSlots(
  db: Queryable,
  entries: readonly Entry[],
  ids: ReadonlyMap<string, number>,
): Promise<Map<string, Slot>> {
  const slots = new Map<string, Slot>();
  for (const { record, at } of entries) {
    for (const scope of ['market', 'aggregate'] as const) {
      const series = seriesOf(record, scope, ids);
      TIERS.forEach((tier, index) => {
        const start = bucketStart(at, tier);
        const key = slotKey(index, series, start);
        if (!slots.has(key)) slots.set(key, { tier, series, row: emptyRow(start), dirty: 0 });
      });
    }
  }
  const wanted = [...slots.values()];
  const result = await db.query<StoredRollupRow>(
    selectRollupRows([
      arrayLiteral('number', wanted, (slot) => TIERS.indexOf(slot.tier)),
      arrayLiteral('number', wanted, (slot) => slot.series),
      arrayLiteral('number', wanted, (slot) => slot.row.start),
    ]),
  );
  for (const stored of result.rows) {
    const slot = slots.get(slotKey(stored[0], stored[1], stored[2]));
    if (slot) slot.row = decodeStored(stored);
  }
  return slots;
}

/** Applies every entry to its slots; returns the slots it changed. */
function applyEntries(
  entries: readonly Entry[],
  slots: ReadonlyMap<string, Slot>,
  ids: ReadonlyMap<string, number>,
): Set<Slot> {
  const changed = new Set<Slot>();
  for (const { record, at, apply } of entries) {
    const touched: Slot[] = [];
    const bit = apply((scope, tier) => {
      const slot = slots.get(
        slotKey(TIERS.indexOf(tier), seriesOf(record, scope, ids), bucketStart(at, tier)),
      )!;
      touched.push(slot);
      return slot.row;
    });
    if (bit === 0) continue;
    for (const slot of touched) {
      slot.dirty |= bit;
      changed.add(slot);
    }
  }
  return changed;
}

/** One upsert per tier with changed rows, each row carrying only its changed sections. */
async function writeSlots(db: Queryable, changed: Iterable<Slot>): Promise<void> {
  const byTier = new Map<Tier, Slot[]>();
  for (const slot of changed) {
    const list = byTier.get(slot.tier) ?? [];
    if (list.length === 0) byTier.set(slot.tier, list);
    list.push(slot);
  }
  for (const [tier, slots] of byTier) {
    const section = <T>(
      bit: number,
      read: (row: RollupRow) => T | null,
      encode: (v: T, row: RollupRow) => Buffer,
    ) =>
      arrayLiteral('bytea', slots, ({ row, dirty }) => {
        const value = dirty & bit ? read(row) : null;
        return value === null ? null : encode(value, row);
      });
    await db.query(
      upsertRollupRows(tier)([
        arrayLiteral('number', slots, (slot) => slot.series),
        arrayLiteral('number', slots, (slot) => slot.row.start),
        section(
          DIRTY_ASK,
          (row) => row.ask,
          (ask, row) => encodeSide('ask', ask, row.start),
        ),
        section(
          DIRTY_BID,
          (row) => row.bid,
          (bid, row) => encodeSide('bid', bid, row.start),
        ),
        section(
          DIRTY_SALES,
          (row) => row.sales,
          (sales) => encodeSales(sales),
        ),
        arrayLiteral('number', slots, ({ row, dirty }) =>
          dirty & DIRTY_SALES && row.sales ? row.sales.n : null,
        ),
      ]),
    );
  }
}

function stripesOf(ids: ReadonlyMap<string, number>): number[] {
  const stripes = new Set<number>();
  for (const id of ids.values()) stripes.add(id % LOCK_STRIPES);
  return [...stripes].sort((a, b) => a - b);
}

/**
 * Merges the batch into the rollups. Call inside the batch's transaction, after its sides and
 * sales were written; returns the series ids it used (for directory.commit once committed).
 */
export async function writeRollups(
  db: Queryable,
  directory: PostgresSeriesDirectory,
  sides: readonly SideSnapshot[],
  newSales: readonly SaleRecord[],
): Promise<Map<string, number>> {
  const entries = entriesOf(sides, newSales);
  if (entries.length === 0) return new Map();
  const names = entries.flatMap(({ record }) => [
    seriesName(record.game, record.itemId, record.market),
    seriesName(record.game, record.itemId, null),
  ]);
  const ids = await directory.ensure(db, names);
  await db.query(lockStripes([arrayLiteral('number', stripesOf(ids), (stripe) => stripe)]));
  const slots = await loadSlots(db, entries, ids);
  await writeSlots(db, applyEntries(entries, slots, ids));
  return ids;
}

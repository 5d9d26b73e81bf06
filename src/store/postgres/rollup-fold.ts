/**
 * Folds the rollup journal into the rollup rows (10m, 1h, 1d), with the same rules as SQLite
 * (src/pricing/rollups.ts). One fold step is one transaction holding the fold lock (one folder
 * per schema at a time): it takes the oldest journal rows it may (DELETE … RETURNING, so a row
 * is merged exactly once, and one a process commits meanwhile waits for the next step), reads
 * every rollup row they land in with one statement, merges them in memory in journal order and
 * writes the changed rows back with one unnest() upsert per tier, carrying only the changed
 * sections. A row nothing changed in (a snapshot already counted) is not written at all.
 */
import { bucketStart, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import {
  emptyRow,
  recordSale,
  recordSide,
  type RollupRow,
  type RowLookup,
} from '../../pricing/rollups.ts';
import { decodeSales, decodeSide, encodeSales, encodeSide } from '../rollup-codec.ts';
import { arrayLiteral } from './array-literal.ts';
import type { Queryable } from './driver.ts';
import {
  lockFold,
  pendingJournal,
  selectRollupRows,
  takeJournal,
  tryLockFold,
  upsertRollupRows,
  type StoredRollupRow,
} from './history-statements.ts';
import { readJournalRow, type JournalEntry } from './rollup-journal.ts';

const DIRTY_ASK = 1;
const DIRTY_BID = 2;
const DIRTY_SALES = 4;

interface Slot {
  tier: Tier;
  series: number;
  row: RollupRow;
  dirty: number;
}

const slotKey = (tier: number, series: number, start: number) => `${tier}:${series}:${start}`;

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
  entries: readonly JournalEntry[],
): Promise<Map<string, Slot>> {
  const slots = new Map<string, Slot>();
  for (const { own, all, at } of entries) {
    for (const series of [own, all]) {
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

const SECTION_BIT = { ask: DIRTY_ASK, bid: DIRTY_BID, sale: DIRTY_SALES } as const;

/** Applies every entry to its slots, in order; returns the slots it changed. */
function applyEntries(
  entries: readonly JournalEntry[],
  slots: ReadonlyMap<string, Slot>,
): Set<Slot> {
  const changed = new Set<Slot>();
  for (const entry of entries) {
    const touched: Slot[] = [];
    const rows: RowLookup = (scope, tier) => {
      const series = scope === 'market' ? entry.own : entry.all;
      const slot = slots.get(slotKey(TIERS.indexOf(tier), series, bucketStart(entry.at, tier)))!;
      touched.push(slot);
      return slot.row;
    };
    if (entry.kind === 'sale') recordSale(rows, entry.price, entry.size);
    else if (!recordSide(rows, { ...entry, side: entry.kind })) continue;
    const bit = SECTION_BIT[entry.kind];
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

/** Journal rows one step takes at most, and entries past which it takes no further row. */
const STEP_ROWS = 1000;
export const STEP_ENTRIES = 50_000;

/**
 * What a fold takes: journal rows whose buckets all closed by `closedBy`, and (retention) rows
 * with an entry before `before`. Everything: closedBy = before = MAX_SAFE_INTEGER.
 */
export interface FoldScope {
  closedBy: number;
  before: number;
}

/**
 * One fold step in the caller's transaction. Returns the journal rows folded, or null when
 * `wait` is false and another fold holds the lock.
 */
export async function foldStep(
  db: Queryable,
  scope: FoldScope,
  wait: boolean,
): Promise<number | null> {
  if (wait) await db.query(lockFold([]));
  else {
    const locked = await db.query<[boolean]>(tryLockFold([]));
    if (locked.rows[0]?.[0] !== true) return null;
  }
  const pending = await db.query<[number, number]>(
    pendingJournal([scope.closedBy, scope.before, STEP_ROWS]),
  );
  const ids: number[] = [];
  for (const [id, upTo] of pending.rows) {
    if (ids.length > 0 && upTo > STEP_ENTRIES) break;
    ids.push(id);
  }
  if (ids.length === 0) return 0;
  const taken = await db.query<[number, number, Buffer]>(
    takeJournal([arrayLiteral('number', ids, (id) => id)]),
  );
  const entries: JournalEntry[] = [];
  const inOrder = taken.rows.sort((a, b) => a[0] - b[0]);
  for (const [, baseAt, body] of inOrder) readJournalRow(baseAt, body, (e) => entries.push(e));
  if (entries.length > 0) await writeSlots(db, applyEntries(entries, await loadSlots(db, entries)));
  return ids.length;
}

/**
 * The rollup side of one SQLite store object: a batch's journal entries, collected in its
 * transaction and made into a blob appended once it commits, and the folds that replay the
 * journal into the history file's rows, each one transaction (docs/history-storage.md, "Rollups,
 * maintained on write").
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../domain/clock.ts';
import type { SaleRecord, SideSnapshot } from '../../domain/quote.ts';
import { bucketIndex, TIER_MS, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import { recordSale, recordSide, type RowLookup } from '../../pricing/rollups.ts';
import { JournalSegments, moveTableJournal } from './journal-segments.ts';
import { grownTo, JournalWriter, replaySegment, type JournalSink } from './rollup-journal.ts';
import { RollupRowCache, writeChunk, writeRow, type CachedRow } from './rollup-row-cache.ts';
import { prepareRollupStatements } from './rollup-statements.ts';
import { SeriesDirectory } from './series-directory.ts';

/** A fold is due `graceMs` after a period (10 minutes) ends (docs/history-storage.md, "Late
 * data"), or after `batches` batches (an import). */
export const FOLD_POLICY = { closeMs: TIER_MS['10m'], graceMs: 3e5, batches: 2000, checkMs: 1000 };
/** Changed rows a fold holds decoded at most: past it, it writes them and goes on replaying. */
const ROWS_PER_WRITE = 50_000;

/**
 * Hands recordSide / recordSale the cached rows of an entry's two series; marks what changed.
 * A series past `known.last` has none (a power cut lost the commit that created it).
 */
function rowSink(cache: RollupRowCache, changed: CachedRow[], known: { last: number }) {
  const touched: CachedRow[] = [];
  let [own, all, at] = [0, 0, 0];
  /** An hour or a day not stored is derived: its observations go nowhere. */
  const rows: RowLookup = (scope, tier: Tier) => {
    const series = scope === 'market' ? own : all;
    if (series > known.last) return null;
    if (tier !== '10m' && bucketIndex(at, tier) > cache.frontier[tier]) return null;
    const cached = cache.get(tier, series, at, scope === 'aggregate');
    if (tier !== '10m' && !cached.stored) return null;
    touched.push(cached);
    return cached.row;
  };
  const entry = (marketSeries: number, aggregateSeries: number, time: number) => {
    [own, all, at] = [marketSeries, aggregateSeries, time];
    touched.length = 0;
  };
  const markTouched = () => {
    for (const cached of touched) {
      if (!cached.dirty) changed.push(cached);
      cached.dirty = true;
    }
  };
  return {
    side(marketSeries, aggregateSeries, obs) {
      entry(marketSeries, aggregateSeries, obs.at);
      if (recordSide(rows, obs)) markTouched();
    },
    sale(marketSeries, aggregateSeries, price, units, time) {
      entry(marketSeries, aggregateSeries, time);
      recordSale(rows, price, units);
      markTouched();
    },
  } satisfies JournalSink;
}

export interface StoreRollupsOptions {
  clock: Clock;
  /** Errors of the folds the store runs by itself (the entries stay for the next one). */
  onFoldError: (message: string) => void;
  /** The prices file, beside which the journal lives. */
  path: string;
  /** Fold what is in the journal now, before the store is used (default true). */
  foldOnOpen?: boolean;
  /** Before each fold: the prices file's checkpoint, so the series its rows name are synced. */
  beforeFold?: () => void;
}

export type StoreRollups = ReturnType<typeof openStoreRollups>;

export function openStoreRollups(db: Database.Database, options: StoreRollupsOptions) {
  const statements = prepareRollupStatements(db);
  const directory = new SeriesDirectory(statements);
  const journal = new JournalWriter();
  const segments = new JournalSegments(options.path);
  moveTableJournal(db, segments);
  const cache = new RollupRowCache(statements);
  const changed: CachedRow[] = [];
  const known = { last: 0 };
  const sink = rowSink(cache, changed, known);
  /** Per series id, its item's aggregate series (ids never change): 0 until looked up. */
  let aggregates = new Int32Array(0);
  const aggregateOf = (own: number) => {
    aggregates = grownTo(aggregates, own + 1);
    aggregates[own] ||= statements.aggregateOf.get(own)?.id ?? 0;
    return aggregates[own] || Number.MAX_SAFE_INTEGER;
  };
  const periodOf = (at: number) => Math.floor(at / FOLD_POLICY.closeMs);

  const writeChanged = () => {
    // In key order (chunk keys fall as series rise): rows in falling order split pages half empty.
    changed.sort((a, b) => a.bucket - b.bucket || a.key - b.key || a.series - b.series);
    let chunk: CachedRow[] = [];
    const startChunk = (rows: CachedRow[]) => {
      if (chunk.length > 0) writeChunk(statements.tiers['10m'], cache, chunk);
      chunk = rows;
    };
    for (const row of changed) {
      cache.frontier[row.tier] = Math.max(cache.frontier[row.tier], row.bucket);
      if (row.key >= 0) writeRow(statements.tiers[row.tier], row);
      else if (chunk[0]?.bucket === row.bucket && chunk[0].key === row.key) chunk.push(row);
      else startChunk([row]);
    }
    startChunk([]);
    changed.length = 0;
    cache.clear();
  };

  /** `sink` for the entries observed in periods `first` through `last` (null: none can be). */
  const within = (first: number, last: number): JournalSink | null => {
    if (first > last) return null;
    const keeps = (at: number) => periodOf(at) >= first && periodOf(at) <= last;
    return {
      side: (own, all, obs) => void (keeps(obs.at) && sink.side(own, all, obs)),
      sale: (own, all, price, n, at) => void (keeps(at) && sink.sale(own, all, price, n, at)),
    };
  };
  const spill = () => void (changed.length >= ROWS_PER_WRITE && writeChanged());

  /** Folds the periods through `through`, and of the next one's segments what they observed
   * (their marks defer the rest); returns the segments folded whole. */
  const foldSome = db.transaction((through: number) => {
    statements.lockHistory();
    changed.length = 0; // what a failed fold left
    cache.clear();
    Object.assign(cache.frontier, statements.readFrontiers.get());
    const [listed, marks] = [segments.list(), new Map<string, [number, number | null]>()];
    for (const [name, ...mark] of statements.readMarks.all())
      if (listed.some((segment) => segment.name === name)) marks.set(name, mark);
      else statements.dropMark.run(name);
    const read = listed.filter((segment) => segment.period <= through + 1);
    const data = read.map(({ name }) => segments.read(name));
    known.last = statements.lastSeries.get()!; // after the segments' commits
    read.forEach(({ name, period }, index) => {
      const [[mark, deferred], bytes] = [marks.get(name) ?? [0, null], data[index]!];
      if (bytes.length <= mark && (deferred ?? Infinity) > through) return;
      const [folded, fresh] = [within(deferred ?? Infinity, through), within(-Infinity, through)];
      const length = replaySegment(bytes, (at) => (at < mark ? folded : fresh), aggregateOf, spill);
      statements.markSegment.run(name, length, period > through ? through + 1 : null);
    });
    writeChanged();
    statements.markFolded.run(...TIERS.map((tier) => cache.frontier[tier]));
    return read.filter(({ period }) => period <= through);
  });

  /** The period of this store's last append, and the earliest time its entries there observed. */
  let [appendedPeriod, openEarliest] = [-Infinity, Infinity];
  /** The earliest period this store appended to and has not folded (Infinity: none). */
  let unfoldedFrom = Infinity;
  let [batchPeriod, batchesSinceFold, failedAt] = [0, 0, null as number | null];

  const fold = (through: number) => {
    options.beforeFold?.();
    const read = foldSome(through);
    if (through >= appendedPeriod) segments.rotate(); // a later append's bases start over
    batchesSinceFold = 0;
    unfoldedFrom = appendedPeriod > through ? through + 1 : Infinity;
    if (unfoldedFrom === Infinity) openEarliest = Infinity;
    const old = read.filter(({ period }) => period < periodOf(options.clock.now()) - 1);
    segments.remove(old.map(({ name }) => name)); // once folded: else the next fold does
  };
  const foldAll = () => fold(Number.MAX_SAFE_INTEGER);
  const foldIfDue = () => {
    const now = options.clock.now();
    const many = batchesSinceFold >= FOLD_POLICY.batches;
    const through = many ? Number.MAX_SAFE_INTEGER : periodOf(now - FOLD_POLICY.graceMs) - 1;
    if (unfoldedFrom > through) return;
    if (failedAt !== null && periodOf(now) === periodOf(failedAt)) return;
    try {
      fold(through);
      failedAt = null;
    } catch (error) {
      failedAt = now;
      options.onFoldError(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
  };

  if (options.foldOnOpen !== false) foldAll();
  const timer = setInterval(foldIfDue, FOLD_POLICY.checkMs).unref();

  return {
    statements,
    directory,
    /** Inside the batch's transaction. */
    record(sides: readonly SideSnapshot[], newSales: readonly SaleRecord[]): void {
      batchPeriod = periodOf(options.clock.now());
      journal.batch(directory, sides, newSales);
    },
    /** After the batch committed: appends it to the journal (or throws), folds if due. */
    committed(): void {
      if (journal.count > 0) {
        segments.append(batchPeriod, (opens) => journal.take(opens));
        if (batchPeriod !== appendedPeriod) openEarliest = Infinity;
        [appendedPeriod, unfoldedFrom] = [batchPeriod, Math.min(unfoldedFrom, batchPeriod)];
        openEarliest = Math.min(openEarliest, journal.earliestAt);
        batchesSinceFold += 1;
      }
      foldIfDue();
    },
    rolledBack(): void {
      directory.discard();
      journal.clear();
    },
    /** Folds what this object journaled and is not folded yet. */
    async flushOwn(): Promise<void> {
      if (unfoldedFrom < Infinity) foldAll();
    },
    /** Folds what this object journaled that a step on the rows before `beforeMs` must see. */
    async flushBefore(beforeMs: number): Promise<void> {
      const open = openEarliest < beforeMs;
      const through = open ? Number.MAX_SAFE_INTEGER : periodOf(options.clock.now()) - 1;
      if (unfoldedFrom <= through) fold(through);
    },
    flushAll: async (): Promise<void> => foldAll(),
    async close(): Promise<void> {
      clearInterval(timer);
      if (unfoldedFrom < Infinity) foldAll();
      segments.close();
    },
  };
}

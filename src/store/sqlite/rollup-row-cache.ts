/**
 * Decoded rollup rows kept between folds by the folder's connection, so live ingest (which
 * keeps hitting the current buckets) neither re-reads nor re-decodes them. The cache is only
 * trusted while no other connection has committed to the history file: its `data_version`
 * moves when one has (own commits leave it alone), and then the cache starts over. A failed
 * fold, or an upkeep step on this connection, also empties it, as does outgrowing its limit.
 * Rows are only read inside a fold's transaction, to be written: a bucket of a packed period
 * has its page unpacked back into loose rows first (rollup-pages.ts).
 */
import type Database from 'better-sqlite3';
import { bucketIndex, TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import { emptyRow, type RollupRow } from '../../pricing/rollups.ts';
import {
  decodeSales,
  decodeSide,
  encodeSalesTransient,
  encodeSideTransient,
  resetTransient,
} from '../rollup-codec.ts';
import { HISTORY_SCHEMA } from './history-file.ts';
import { unpackPage } from './rollup-pages.ts';
import { SECTION_BITS } from './page-format.ts';
import type { RollupStatements, RowOfPeriod, TierStatements } from './rollup-statements.ts';

/**
 * Rows kept at most; past it the cache starts over. A decoded row takes about 650 bytes of heap:
 * at 100,000 the cache held 84 MB (132,000 rows: it only starts over at the next transaction) of
 * the ingest thread's 259 MB live heap in the first polling wave. Rows of a fold's own
 * transaction stay cached until it commits, whatever the limit.
 */
export const ROW_CACHE_LIMIT = 25_000;

/**
 * Per tier, per series id (small dense integers: an array beats a map here), the rows held,
 * newest last.
 */
type RowTable = Record<Tier, (CachedRow[] | undefined)[]>;
const emptyTable = (): RowTable => ({ '10m': [], '1h': [], '1d': [] });

export interface CachedRow {
  tier: Tier;
  series: number;
  bucket: number;
  row: RollupRow;
  /** SECTION_BITS of the sections the current fold changed. */
  dirty: number;
  /** The bucket has a stored row. */
  stored: boolean;
}

const EVERY_SECTION = SECTION_BITS.ask | SECTION_BITS.bid | SECTION_BITS.sales;

/**
 * Writes a bucket's loose row: the sections in `sections` (SECTION_BITS) that the row holds;
 * the others keep what is stored.
 */
export function writeRow(
  statements: TierStatements,
  series: number,
  bucket: number,
  row: RollupRow,
  sections = EVERY_SECTION,
): void {
  resetTransient();
  const wants = (name: keyof typeof SECTION_BITS) => sections & SECTION_BITS[name];
  const ask = wants('ask') && row.ask ? encodeSideTransient('ask', row.ask, row.start) : null;
  const bid = wants('bid') && row.bid ? encodeSideTransient('bid', row.bid, row.start) : null;
  const sales = wants('sales') && row.sales ? encodeSalesTransient(row.sales) : null;
  statements.upsertRow.run(series, bucket, ask, bid, sales);
}

function decodeRow(start: number, stored: RowOfPeriod): RollupRow {
  return {
    start,
    ask: stored[1] ? decodeSide('ask', stored[1], start) : null,
    bid: stored[2] ? decodeSide('bid', stored[2], start) : null,
    sales: stored[3] ? decodeSales(stored[3]) : null,
  };
}

export class RollupRowCache {
  private rows = emptyTable();
  private size = 0;
  private readonly dataVersion: Database.Statement<[], number>;
  /** data_version after our last commit; null when the cache is not to be trusted. */
  private trusted: number | null = null;
  private seen: number | null = null;

  /**
   * Per tier, the highest bucket any row was ever stored with (store-rollups.ts keeps it): a
   * bucket above it has no row, so reading one is skipped (most misses are such new buckets).
   */
  readonly frontier: Record<Tier, number> = { '10m': -1, '1h': -1, '1d': -1 };

  constructor(
    db: Database.Database,
    private readonly statements: RollupStatements,
    private readonly limit = ROW_CACHE_LIMIT,
  ) {
    this.dataVersion = db.prepare<[], number>(`PRAGMA ${HISTORY_SCHEMA}.data_version`).pluck();
  }

  /** Call at the start of each write transaction. */
  begin(): void {
    this.seen = this.dataVersion.get()!;
    if (this.seen !== this.trusted || this.size > this.limit) this.clear();
  }

  /** False when no row of the bucket holding `at` can be stored (it lies past the frontier). */
  mayHold(tier: Tier, at: number): boolean {
    return bucketIndex(at, tier) <= this.frontier[tier];
  }

  get(tier: Tier, series: number, at: number): CachedRow {
    const bucket = bucketIndex(at, tier);
    const table = this.rows[tier];
    let held = table[series];
    if (held === undefined) table[series] = held = [];
    for (let index = held.length - 1; index >= 0; index -= 1) {
      if (held[index]!.bucket === bucket) return held[index]!;
    }
    const start = bucket * TIER_MS[tier];
    const statements = this.statements.tiers[tier];
    let found: RowOfPeriod | undefined;
    if (bucket <= this.frontier[tier]) {
      unpackPage(statements, tier, series, bucket);
      found = statements.selectRows.get(series, bucket, bucket + 1);
    }
    const row = found ? decodeRow(start, found) : emptyRow(start);
    const cached = { tier, series, bucket, row, dirty: 0, stored: found !== undefined };
    held.push(cached);
    this.size += 1;
    return cached;
  }

  /** The transaction committed: the cached rows are what the database holds. */
  committed(): void {
    this.trusted = this.seen;
  }

  /** The transaction rolled back, or rows changed behind the cache's back. */
  invalidate(): void {
    this.clear();
    this.trusted = null;
  }

  private clear(): void {
    this.rows = emptyTable();
    this.size = 0;
  }
}

/**
 * One fold transaction's decoded rows (from empty: about 650 bytes of heap a row) and the chunks
 * of 10-minute rows it reads or writes (docs/history-storage.md, "Rollups, maintained on write").
 */
import { bucketIndex, TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import type { RollupRow } from '../../pricing/rollups.ts';
import { decodeSales, decodeSide, encodeSales, encodeSide } from '../rollup-codec.ts';
import { unpackPage } from './rollup-pages.ts';
import { chunkKey, decodeChunk, encodeChunk, type ChunkEntries } from './rollup-chunks.ts';
import { PAGE_BUCKETS, type Sections } from './page-format.ts';
import type { RollupStatements, TierStatements } from './rollup-statements.ts';

/** Per tier and series id (dense: an array beats a map here), the rows held, newest last. */
type RowTable = Record<Tier, (CachedRow[] | undefined)[]>;
const emptyTable = (): RowTable => ({ '10m': [], '1h': [], '1d': [] });

export interface CachedRow {
  tier: Tier;
  series: number;
  bucket: number;
  row: RollupRow;
  dirty: boolean;
  /** Found stored, in a row of its own or its chunk. */
  stored: boolean;
  /** Its key in its loose table: its chunk's (below 0) if a 10-minute row not stored in a row of
   * its own, unless an aggregate's (item reads inflate no chunk); else its own series. */
  key: number;
}

type RowAt = Pick<CachedRow, 'series' | 'bucket' | 'row'>;

const sectionsOf = ({ start, ask, bid, sales }: RollupRow): Sections => [
  ask && encodeSide('ask', ask, start),
  bid && encodeSide('bid', bid, start),
  sales && encodeSales(sales),
];

/** Writes a loose row's sections; a section it lacks keeps what is stored. */
export function writeRow(to: TierStatements, { series, bucket, row }: RowAt): void {
  to.loose.of(bucket, true)!.upsertRow.run(series, bucket, ...sectionsOf(row));
}

/** Writes 10-minute rows of one bucket and chunk into it, with the entries it holds. */
export function writeChunk(to: TierStatements, cache: RollupRowCache, rows: CachedRow[]): void {
  const [{ bucket, key }] = rows as [CachedRow];
  const entries = cache.chunk(bucket, key);
  for (const { series, row } of rows) entries.set(series, sectionsOf(row));
  to.loose.of(bucket, true)!.upsertRow.run(key, bucket, encodeChunk(entries), null, null);
}

export class RollupRowCache {
  private rows = emptyTable();
  private chunks = new Map<number, ChunkEntries>();
  /** Per tier, the end of the last period with a page when the transaction began. */
  private pagedTo: Partial<Record<Tier, number>> = {};

  /** Per tier, the highest bucket ever stored (store-rollups.ts): no row lies past it. */
  readonly frontier: Record<Tier, number> = { '10m': -1, '1h': -1, '1d': -1 };

  constructor(private readonly statements: RollupStatements) {}

  /** Call at the start and the end of each write transaction. */
  clear(): void {
    [this.rows, this.pagedTo, this.chunks] = [emptyTable(), {}, new Map()];
  }

  get(tier: Tier, series: number, at: number, aggregate: boolean): CachedRow {
    const bucket = bucketIndex(at, tier);
    const held = (this.rows[tier][series] ??= []);
    for (let index = held.length - 1; index >= 0; index -= 1)
      if (held[index]!.bucket === bucket) return held[index]!;
    const start = bucket * TIER_MS[tier];
    const statements = this.statements.tiers[tier];
    const paged = bucket / PAGE_BUCKETS[tier] < (this.pagedTo[tier] ??= statements.pagedTo.get()!);
    if (paged) unpackPage(statements, tier, series, bucket);
    const seek = paged || bucket <= this.frontier[tier];
    const inRow = seek ? statements.loose.of(bucket)?.selectRow.get(series, bucket) : undefined;
    const inChunk = seek && !inRow && tier === '10m';
    const found = inRow ?? (inChunk ? this.chunk(bucket, chunkKey(series)).get(series) : undefined);
    const [ask, bid, sales] = found ?? [];
    const row: RollupRow = {
      start,
      ask: ask ? decodeSide('ask', ask, start) : null,
      bid: bid ? decodeSide('bid', bid, start) : null,
      sales: sales ? decodeSales(sales) : null,
    };
    const key = tier === '10m' && !inRow && !aggregate ? chunkKey(series) : series;
    const cached = { tier, series, bucket, row, dirty: false, stored: found !== undefined, key };
    held.push(cached);
    return cached;
  }

  /** The entries of a 10-minute bucket's chunk (kept until clear, to be added to). */
  chunk(bucket: number, key: number): ChunkEntries {
    const id = bucket * 2 ** 21 - key;
    let entries = this.chunks.get(id);
    if (entries) return entries;
    const stored = this.statements.tiers['10m'].loose.of(bucket)?.selectRow.get(key, bucket);
    entries = stored?.[0] ? decodeChunk(key, stored[0]) : new Map();
    this.chunks.set(id, entries);
    return entries;
  }
}

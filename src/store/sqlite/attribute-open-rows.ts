/**
 * The open attribute buckets of the SQLite store, in memory (bucket-history.ts makes them
 * durable). Per tier, a mark: rows of buckets starting before it are in `attribute_rollups`,
 * rows at or past it are held here, merged from observations as the store's upsert merges
 * them (mergeRollup). A connection's held rows are the change log replayed over the marks, so
 * the writer and every reader hold the same rows for the same log and marks.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  mergeRollup,
  rollupOf,
  type BucketObservation,
  type BucketRollup,
} from '../bucket-history.ts';
import { bucketStart, TIERS, type Tier } from '../../pricing/rollup-buckets.ts';
import {
  bucketRollupFromRow,
  bucketRollupValues,
  type BucketRollupRow,
} from '../bucket-rollup-rows.ts';

export type Marks = Record<Tier, number>;

export const NO_MARKS: Marks = { '10m': 0, '1h': 0, '1d': 0 };

type Held = Map<number, Map<string, BucketRollup>>;

export class OpenBuckets {
  private readonly held = new Map<Tier, Held>(TIERS.map((tier) => [tier, new Map()]));
  marks: Marks = { ...NO_MARKS };
  /** The last log id merged. */
  knownId = 0;
  /** The latest observation time merged. */
  latest = 0;

  /** Merges into each tier's open row at or past its mark; the tiers whose bucket is closed. */
  merge(observation: BucketObservation): Tier[] {
    this.latest = Math.max(this.latest, observation.at);
    const closed: Tier[] = [];
    for (const tier of TIERS) {
      if (bucketStart(observation.at, tier) < this.marks[tier]) {
        closed.push(tier);
        continue;
      }
      const row = rollupOf(observation, tier);
      const bucket = this.bucketOf(tier, row.start);
      const before = bucket.get(row.bucketId);
      bucket.set(row.bucketId, before === undefined ? row : mergeRollup(before, row));
    }
    return closed;
  }

  /** Moves the marks forward (never back); rows now below them are dropped (stored). */
  advance(marks: Marks): void {
    for (const tier of TIERS) this.closeBefore(tier, marks[tier]);
  }

  /** Removes and returns the tier's rows of buckets starting before `boundary`; marks it. */
  closeBefore(tier: Tier, boundary: number): BucketRollup[] {
    if (boundary <= this.marks[tier]) return [];
    this.marks[tier] = boundary;
    const out: BucketRollup[] = [];
    const held = this.held.get(tier)!;
    for (const [start, bucket] of held) {
      if (start >= boundary) continue;
      out.push(...bucket.values());
      held.delete(start);
    }
    return out;
  }

  /** The held rows of one bucket id and tier with start in [first, to). */
  find(bucketId: string, tier: Tier, first: number, to: number): BucketRollup[] {
    const out: BucketRollup[] = [];
    for (const [start, bucket] of this.held.get(tier)!) {
      const row = start >= first && start < to ? bucket.get(bucketId) : undefined;
      if (row !== undefined) out.push(row);
    }
    return out;
  }

  /** Holds a row as it is (a snapshot's), if its bucket is open. */
  hold(tier: Tier, row: BucketRollup): void {
    this.latest = Math.max(this.latest, row.lastAt);
    if (row.start >= this.marks[tier]) this.bucketOf(tier, row.start).set(row.bucketId, row);
  }

  /** Every held row with its tier. */
  *rows(): Generator<[Tier, BucketRollup]> {
    for (const [tier, held] of this.held) {
      for (const bucket of held.values()) for (const row of bucket.values()) yield [tier, row];
    }
  }

  /** Rows held, all tiers (for tests and figures). */
  get size(): number {
    let total = 0;
    for (const held of this.held.values()) for (const bucket of held.values()) total += bucket.size;
    return total;
  }

  private bucketOf(tier: Tier, start: number): Map<string, BucketRollup> {
    const held = this.held.get(tier)!;
    let bucket = held.get(start);
    if (bucket === undefined) held.set(start, (bucket = new Map()));
    return bucket;
  }
}

/** Where each tier's mark goes once the latest observation is at `latest`: `grace` behind it. */
export function closingMarks(latest: number, grace: number): Marks {
  const at = Math.max(0, latest - grace);
  return {
    '10m': bucketStart(at, '10m'),
    '1h': bucketStart(at, '1h'),
    '1d': bucketStart(at, '1d'),
  };
}

type Encoded = [string, number, number, number | null, number, number | null];

/** One call's observations as a log blob (deflated JSON rows). */
export function encodeObservations(observations: readonly BucketObservation[]): Buffer {
  const rows: Encoded[] = observations.map((o) => [
    o.bucketId,
    o.at,
    o.askCents,
    o.bidCents,
    o.askListingCount,
    o.bidOrderCount,
  ]);
  return deflateRawSync(JSON.stringify(rows));
}

/** Held rows as a snapshot blob (deflated JSON of the upsert's parameters). */
export function encodeHeld(rows: Iterable<[Tier, BucketRollup]>): Buffer {
  const values: unknown[][] = [];
  for (const [tier, row] of rows) values.push(bucketRollupValues(row, tier));
  return deflateRawSync(JSON.stringify(values));
}

export function decodeHeld(blob: Buffer): [Tier, BucketRollup][] {
  const values = JSON.parse(inflateRawSync(blob).toString('utf8')) as [string, Tier, ...number[]][];
  return values.map(([bucketId, tier, ...rest]) => [
    tier,
    bucketRollupFromRow([bucketId, ...rest] as BucketRollupRow),
  ]);
}

export function decodeObservations(blob: Buffer): BucketObservation[] {
  const rows = JSON.parse(inflateRawSync(blob).toString('utf8')) as Encoded[];
  return rows.map(([bucketId, at, askCents, bidCents, askListingCount, bidOrderCount]) => ({
    bucketId,
    at,
    askCents,
    bidCents,
    askListingCount,
    bidOrderCount,
  }));
}

/**
 * One attribute-bucket rollup as a positional SQL row, shared by the SQLite and PostgreSQL
 * bucket-history stores: the parameter order of their upserts and the column order of their
 * selects (bucket_id, start, open, high, low, close, ask_sum, ask_n, close_bid, ask_count,
 * bid_count, first_at, last_at).
 */
import type { BucketRollup } from './bucket-history.ts';
import type { Tier } from '../pricing/rollup-buckets.ts';

export type BucketRollupRow = [
  string,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number | null,
  number,
  number | null,
  number,
  number,
];

/** Upsert parameters: the bucket id and tier, then the row's figures in column order. */
export function bucketRollupValues(row: BucketRollup, tier: Tier): unknown[] {
  return [
    row.bucketId,
    tier,
    row.start,
    row.open,
    row.high,
    row.low,
    row.close,
    row.askSum,
    row.askN,
    row.closeBid,
    row.askCount,
    row.bidCount,
    row.firstAt,
    row.lastAt,
  ];
}

/** A selected row back as a rollup (PostgreSQL may hand `start` over as a bigint string). */
export function bucketRollupFromRow(row: BucketRollupRow): BucketRollup {
  const [bucketId, start, open, high, low, close, askSum, askN, closeBid, askCount, bidCount] = row;
  return {
    bucketId,
    start: Number(start),
    open,
    high,
    low,
    close,
    askSum,
    askN,
    closeBid,
    askCount,
    bidCount,
    firstAt: row[11],
    lastAt: row[12],
  };
}

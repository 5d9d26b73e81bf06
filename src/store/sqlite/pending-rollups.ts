/**
 * Rollup observations committed to the journal but not yet folded into the rollup tables:
 * per (series, 10-minute bucket) the delta row of what arrived since the last fold. A fold
 * merges each delta into its 10m, 1h and 1d rows, so a stored row is written once per fold
 * instead of once per batch. Per-market buckets also keep the latest fetchedAt the stored row
 * had counted, so a snapshot still counts once (src/pricing/rollups.ts).
 */
import type { Cents } from '../../domain/money.ts';
import { TIER_MS } from '../../pricing/rollup-buckets.ts';
import {
  addObservation,
  addPrice,
  countedBefore,
  emptyRow,
  entersAggregate,
  type RollupRow,
  type SideObservation,
} from '../../pricing/rollups.ts';

export interface PendingBucket {
  series: number;
  /** Delta row: the observations not yet folded (its start is the 10m bucket's start). */
  delta: RollupRow;
  /** Per-market buckets: the latest fetchedAt already in the stored row, per side. */
  storedAsk: number | null;
  storedBid: number | null;
}

/** Fills a new per-market bucket's storedAsk / storedBid from its stored 10-minute row. */
export type StoredLastAt = (bucket: PendingBucket, at: number) => void;

const WIDTH = TIER_MS['10m'];

export class PendingRollups {
  /**
   * Per series id (ids are small dense integers, so an array beats a map here), its pending
   * buckets: a handful, the 10m buckets since the last fold.
   */
  private bySeries: (PendingBucket[] | undefined)[] = [];
  /** Every pending bucket, in the order they were opened. */
  private readonly all: PendingBucket[] = [];
  /** Observations (sales: records) accumulated since the last clear. */
  observations = 0;

  constructor(private readonly storedLastAt: StoredLastAt) {}

  get size(): number {
    return this.all.length;
  }

  values(): readonly PendingBucket[] {
    return this.all;
  }

  clear(): void {
    for (const entry of this.all) this.bySeries[entry.series] = undefined;
    this.all.length = 0;
    this.observations = 0;
  }

  /**
   * Adds a book observation to its market's series and (asks, and bids of cash-executable
   * markets: entersAggregate) the aggregate series. False when the snapshot was already
   * counted: nothing changes.
   */
  addSide(marketSeries: number, aggregateSeries: number, obs: SideObservation): boolean {
    const own = this.bucket(marketSeries, obs.at, true);
    const stored = obs.side === 'ask' ? own.storedAsk : own.storedBid;
    const pending = own.delta[obs.side]?.lastAt ?? null;
    const latest =
      stored === null || pending === null ? (stored ?? pending) : Math.max(stored, pending);
    if (countedBefore(latest, obs.at)) {
      const { ask, bid, sales } = own.delta;
      if (!ask && !bid && !sales) this.forget(marketSeries, own);
      return false;
    }
    own.delta[obs.side] = addObservation(own.delta[obs.side], obs, true);
    if (entersAggregate(obs)) {
      const all = this.bucket(aggregateSeries, obs.at, false).delta;
      all[obs.side] = addObservation(all[obs.side], obs, false);
    }
    this.observations += 1;
    return true;
  }

  addSale(marketSeries: number, aggregateSeries: number, price: Cents, units: number, at: number) {
    const own = this.bucket(marketSeries, at, true).delta;
    own.sales = addPrice(own.sales, price, units);
    const all = this.bucket(aggregateSeries, at, false).delta;
    all.sales = addPrice(all.sales, price, units);
    this.observations += 1;
  }

  private bucket(series: number, at: number, perMarket: boolean): PendingBucket {
    const start = at - (at % WIDTH);
    let list = this.bySeries[series];
    if (list === undefined) this.bySeries[series] = list = [];
    for (let index = 0; index < list.length; index += 1) {
      const held = list[index]!;
      if (held.delta.start === start) return held;
    }
    const found: PendingBucket = {
      series,
      delta: emptyRow(start),
      storedAsk: null,
      storedBid: null,
    };
    if (perMarket) this.storedLastAt(found, at);
    list.push(found);
    this.all.push(found);
    return found;
  }

  private forget(series: number, entry: PendingBucket): void {
    const list = this.bySeries[series]!;
    list.splice(list.indexOf(entry), 1);
    this.all.splice(this.all.lastIndexOf(entry), 1);
  }
}

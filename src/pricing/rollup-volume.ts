/**
 * Rolling sale volume (pure): the units sold in the trailing `salesWindow` as of a bucket's
 * END, i.e. in [end − window, end). Adjacent buckets' windows overlap, so volumes must never
 * be summed. Nothing per window is stored: each bucket's volume comes from the stored
 * per-bucket sale counts, covering the window with whole days, then hours, then 10-minute
 * buckets at its edges, each looked up in prefix sums (so a point costs O(log n)).
 */
import { DAY } from '../domain/clock.ts';
import { coverRange, TIER_MS, TIERS, type Tier, type TierSpan } from './rollup-buckets.ts';

export const SALES_WINDOWS = ['24h', '7d', '30d', '90d'] as const;
export type SalesWindow = (typeof SALES_WINDOWS)[number];
export const DEFAULT_SALES_WINDOW: SalesWindow = '30d';

export const SALES_WINDOW_MS: Readonly<Record<SalesWindow, number>> = {
  '24h': DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
};

/** Units sold in one stored bucket (buckets without sales are absent). */
export interface SaleCount {
  start: number;
  units: number;
}

/** Tiers a window ending on a `tier` boundary is covered with: that tier and coarser. */
function coverTiers(tier: Tier): Tier[] {
  return TIERS.filter((candidate) => TIER_MS[candidate] >= TIER_MS[tier]);
}

function windowSpans(start: number, tier: Tier, windowMs: number): TierSpan[] {
  const end = start + TIER_MS[tier];
  return coverRange(end - windowMs, end, coverTiers(tier));
}

/**
 * The spans whose sale counts the volumes of the `tier` buckets starting in
 * [firstStart, lastStart] need, merged per tier into as few ranges as possible.
 */
export function volumeSpans(
  firstStart: number,
  lastStart: number,
  tier: Tier,
  windowMs: number,
): TierSpan[] {
  const byTier = new Map<Tier, TierSpan[]>();
  for (let start = firstStart; start <= lastStart; start += TIER_MS[tier]) {
    for (const span of windowSpans(start, tier, windowMs)) {
      const list = byTier.get(span.tier) ?? [];
      byTier.set(span.tier, list);
      list.push(span);
    }
  }
  return [...byTier.values()].flatMap(mergeSpans);
}

/** Joins spans less than a day apart: one range read with a few spare rows beats many. */
function mergeSpans(spans: TierSpan[]): TierSpan[] {
  const sorted = [...spans].sort((a, b) => a.fromMs - b.fromMs);
  const out: TierSpan[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.fromMs <= last.toMs + DAY) last.toMs = Math.max(last.toMs, span.toMs);
    else out.push({ ...span });
  }
  return out;
}

class PrefixSums {
  private readonly starts: number[] = [];
  private readonly prefix: number[] = [0];

  constructor(counts: readonly SaleCount[]) {
    const sorted = [...counts].sort((a, b) => a.start - b.start);
    for (const count of sorted) {
      this.starts.push(count.start);
      this.prefix.push(this.prefix[this.prefix.length - 1]! + count.units);
    }
  }

  /** Units in buckets starting in [fromMs, toMs). */
  between(fromMs: number, toMs: number): number {
    return this.prefix[this.lowerBound(toMs)]! - this.prefix[this.lowerBound(fromMs)]!;
  }

  private lowerBound(value: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle]! < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** Answers "units sold in this span" from the sale counts loaded for volumeSpans. */
export class SaleCounter {
  private readonly sums = new Map<Tier, PrefixSums>();

  constructor(counts: Partial<Record<Tier, readonly SaleCount[]>>) {
    for (const tier of TIERS) this.sums.set(tier, new PrefixSums(counts[tier] ?? []));
  }

  units(span: TierSpan): number {
    return this.sums.get(span.tier)!.between(span.fromMs, span.toMs);
  }

  /** Units sold in the `windowMs` ending where the `tier` bucket starting at `start` ends. */
  rollingVolume(start: number, tier: Tier, windowMs: number): number {
    let total = 0;
    for (const span of windowSpans(start, tier, windowMs)) total += this.units(span);
    return total;
  }
}

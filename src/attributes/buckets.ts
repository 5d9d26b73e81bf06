/**
 * Attribute buckets of one item on one market, derived (pure, `now` free) from that market's
 * latest listings and its bid side. Per listing, the buckets it belongs to:
 * - `float:<min>-<max>`: the band of its float (bands.ts: Buff163's own layout on buff163,
 *   0.01 bins elsewhere);
 * - `fade:<p>-<p+1>`: the whole fade percent of its seed on Fade weapons (fade.ts), 80..99
 *   (100 % joins the 99-100 bucket, which then includes its max);
 * - `tag:<phase>`: its Doppler / Gamma Doppler phase or gem (phase.ts);
 * - `tag:<phase>:float:<min>-<max>`: both, so one phase's float bands are priced apart.
 * A bucket's ask is the minimum of its listings; avg and median follow stats.ts rounding. The
 * market's best unconditional bid buys any copy, so it is every bucket's bid (null when the
 * market has no bid); no market publishes per-float bids we read.
 */
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import type { ListingRecord, SideSnapshot } from '../domain/quote.ts';
import { roundedMean, roundedMedian } from '../pricing/stats.ts';
import { bandLabel, bandOf, layoutOf, type FloatBand } from './bands.ts';
import { fadePercent, FADE_MIN_PERCENT, hasFade } from './fade.ts';
import { phaseTag } from './phase.ts';

export const ATTRIBUTES = ['float', 'fade', 'tag'] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

/** Markets whose listings are cut into buckets (the simulator serves them too). */
export const BUCKET_MARKETS: readonly MarketId[] = [
  'buff163',
  'steamcommunity',
  'marketcsgo',
  'csfloat',
  'dmarket',
];

export const BUCKET_SCHEMA_VERSION = 1;

export interface Range {
  min: number;
  max: number;
  minInclusive: boolean;
  maxInclusive: boolean;
}

export interface BucketDimensions {
  variant: string | null;
  float: Range | null;
  fade: Range | null;
  pattern: null;
  paintSeed: null;
  finishCatalog: number | null;
  sourceTagId: null;
  sourceTagName: string | null;
  /** Keychain (charm) template; no source here carries charms, so always null. */
  charmTemplate: null;
  /** Custom name tag; no bucket is keyed by one, so always null. */
  nameTag: null;
  /** Sticker scrape (wear) level; no bucket is keyed by one, so always null. */
  stickerScrape: null;
}

export interface AttributeBucket {
  bucketId: string;
  bucketKey: string;
  attributeTypes: Attribute[];
  dimensions: BucketDimensions;
  sourceItemId: string;
  askCents: Cents;
  avgAskCents: Cents;
  medianAskCents: Cents;
  bidCents: Cents | null;
  askListingCount: number;
  bidOrderCount: number | null;
  /** Newest fetchedAt of the bucket's listings, ms. */
  sourceUpdatedAt: number;
}

export interface BucketInput {
  market: MarketId;
  item: CatalogItem;
  /** This market's latest listings of the item (and of its phase variants). */
  listings: readonly ListingRecord[];
  bid: SideSnapshot | null;
}

/** Every dimension null: the base a bucket's own dimensions are spread over. */
export const EMPTY_DIMENSIONS: BucketDimensions = {
  variant: null,
  float: null,
  fade: null,
  pattern: null,
  paintSeed: null,
  finishCatalog: null,
  sourceTagId: null,
  sourceTagName: null,
  charmTemplate: null,
  nameTag: null,
  stickerScrape: null,
};

export function bucketIdOf(market: MarketId, itemId: string, key: string): string {
  return `${market}:${itemId}:${key}`;
}

function floatRange(band: FloatBand): Range {
  return { min: band.min, max: band.max, minInclusive: true, maxInclusive: false };
}

function fadeRange(percent: number): { label: string; range: Range } {
  const low = Math.min(Math.floor(percent), 99);
  const range = { min: low, max: low + 1, minInclusive: true, maxInclusive: low === 99 };
  return { label: `${low}-${low + 1}`, range };
}

type Visit = (key: string, types: Attribute[], dimensions: () => BucketDimensions) => void;

const FLOAT_TYPES: Attribute[] = ['float'];
const FADE_TYPES: Attribute[] = ['fade'];
const TAG_TYPES: Attribute[] = ['tag'];
const TAG_FLOAT_TYPES: Attribute[] = ['tag', 'float'];

/** `float:<min>-<max>` per band object (bands.ts hands out shared objects). */
const bandKeys = new Map<FloatBand, string>();
const bandKey = (band: FloatBand): string => {
  let key = bandKeys.get(band);
  if (key === undefined) bandKeys.set(band, (key = `float:${bandLabel(band)}`));
  return key;
};

/** Calls `visit` for each bucket one listing belongs to; dimensions are built on demand. */
export function visitMemberships(
  market: MarketId,
  item: CatalogItem,
  listing: ListingRecord,
  visit: Visit,
): void {
  const band = listing.floatValue === null ? null : bandOf(layoutOf(market), listing.floatValue);
  if (band)
    visit(bandKey(band), FLOAT_TYPES, () => ({ ...EMPTY_DIMENSIONS, float: floatRange(band) }));
  const fade =
    listing.paintSeed !== null && hasFade(item.weapon, item.finish)
      ? fadePercent(item.weapon!, listing.paintSeed)
      : null;
  if (fade !== null && fade >= FADE_MIN_PERCENT) {
    const { label, range } = fadeRange(fade);
    visit(`fade:${label}`, FADE_TYPES, () => ({ ...EMPTY_DIMENSIONS, fade: range }));
  }
  const tag = phaseTag(listing.phase);
  if (!tag) return;
  const tagged = () => ({
    ...EMPTY_DIMENSIONS,
    variant: listing.phase,
    finishCatalog: listing.paintIndex,
    sourceTagName: listing.phase,
  });
  visit(`tag:${tag.key}`, TAG_TYPES, tagged);
  if (band) {
    const key = `tag:${tag.key}:${bandKey(band)}`;
    visit(key, TAG_FLOAT_TYPES, () => ({ ...tagged(), float: floatRange(band) }));
  }
}

interface Gathered {
  types: Attribute[];
  dimensions: BucketDimensions;
  prices: Cents[];
  updatedAt: number;
}

/** Every bucket of the item on the market, sorted by key. */
export function deriveBuckets(input: BucketInput): AttributeBucket[] {
  const gathered = new Map<string, Gathered>();
  for (const listing of input.listings) {
    visitMemberships(input.market, input.item, listing, (key, types, dimensions) => {
      const held = gathered.get(key);
      if (held) {
        held.prices.push(listing.price);
        if (listing.fetchedAt > held.updatedAt) held.updatedAt = listing.fetchedAt;
      } else {
        const prices = [listing.price];
        gathered.set(key, {
          types,
          dimensions: dimensions(),
          prices,
          updatedAt: listing.fetchedAt,
        });
      }
    });
  }
  const top = input.bid?.levels[0] ?? null;
  const bidOrders = top === null ? null : (input.bid?.listingCount ?? null);
  return [...gathered.keys()].sort().map((key) => {
    const { types, dimensions, prices, updatedAt } = gathered.get(key)!;
    const sorted = prices.sort((a, b) => a - b);
    return {
      bucketId: bucketIdOf(input.market, input.item.id, key),
      bucketKey: key,
      attributeTypes: types,
      dimensions,
      sourceItemId: input.item.marketHashName,
      askCents: sorted[0]!,
      avgAskCents: roundedMean(sorted),
      medianAskCents: roundedMedian(sorted),
      bidCents: top?.price ?? null,
      askListingCount: sorted.length,
      bidOrderCount: bidOrders,
      sourceUpdatedAt: updatedAt,
    };
  });
}

/** Whether a bucket is served for the requested attributes: all its dimensions were asked for. */
export function isRequested(bucket: AttributeBucket, attributes: ReadonlySet<Attribute>): boolean {
  return bucket.attributeTypes.every((type) => attributes.has(type));
}

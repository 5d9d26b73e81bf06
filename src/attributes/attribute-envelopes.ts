/**
 * The attribute envelopes (spec: Attribute bucket; conventions: attribute prices): the latest
 * buckets of one item (the paginated snapshot of every item is snapshot-page.ts) and bucket
 * history. Market-scoped reads (`/v1/markets/buff163/...`) carry `market` instead of
 * `markets`. Buckets whose listings were last seen longer ago than listings are kept (2 h) are
 * gone with them.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import { notFound } from '../domain/errors.ts';
import { bucketStart, TIER_MS } from '../pricing/rollup-buckets.ts';
import type { HistoryStore } from '../store/history-store.ts';
import type { AttributeBook, MarketBuckets } from './attribute-book.ts';
import type { AttributeWindow } from './attribute-query.ts';
import { pointOf } from '../store/bucket-history.ts';
import type { ParsedBucketId } from './bucket-key.ts';
import { keyShape } from './bucket-key.ts';
import {
  BUCKET_SCHEMA_VERSION,
  isRequested,
  type Attribute,
  type AttributeBucket,
} from './buckets.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** `markets` for cross-market reads, `market` for the native market's own routes. */
export type Scope = { markets: MarketId[] } | { market: MarketId };

const scopeMarkets = (scope: Scope): MarketId[] =>
  'market' in scope ? [scope.market] : scope.markets;

function servedBucket(bucket: AttributeBucket, collectedAt: number) {
  return {
    bucketId: bucket.bucketId,
    bucketKey: bucket.bucketKey,
    bucketType: 'attribute' as const,
    attributeType: bucket.attributeTypes[0]!,
    attributeTypes: bucket.attributeTypes,
    dimensions: bucket.dimensions,
    sourceItemId: bucket.sourceItemId,
    sourceBucketId: bucket.bucketKey,
    askCents: bucket.askCents,
    avgAskCents: bucket.avgAskCents,
    medianAskCents: bucket.medianAskCents,
    bidCents: bucket.bidCents,
    askListingCount: bucket.askListingCount,
    bidOrderCount: bucket.bidOrderCount,
    sourceUpdatedAt: iso(bucket.sourceUpdatedAt),
    collectedAt: iso(collectedAt),
  };
}

export interface LatestRequest {
  book: AttributeBook;
  catalog: Catalog;
  scope: Scope;
  attributes: ReadonlySet<Attribute>;
  now: number;
  maxAgeMs: number;
}

/** An item's entries (one per market with requested buckets still fresh). */
export function itemEntries(request: LatestRequest, item: CatalogItem) {
  const wanted = new Set(scopeMarkets(request.scope));
  const oldest = request.now - request.maxAgeMs;
  return request.book.buckets(item.id).flatMap((held: MarketBuckets) => {
    if (!wanted.has(held.market)) return [];
    const buckets = held.buckets
      .filter(
        (bucket) => bucket.sourceUpdatedAt >= oldest && isRequested(bucket, request.attributes),
      )
      .map((bucket) => servedBucket(bucket, held.collectedAt));
    if (buckets.length === 0) return [];
    const { id: canonicalItemId, marketHashName } = item;
    return [{ canonicalItemId, marketHashName, market: held.market, buckets }];
  });
}

/** The envelope's fields before `items`, in the order they are served. */
export function latestHead(request: Pick<LatestRequest, 'scope' | 'now'>) {
  return {
    bucketSchemaVersion: BUCKET_SCHEMA_VERSION,
    ...request.scope,
    currency: 'USD' as const,
    asOf: iso(request.now),
  };
}

/** Markets of the scope no entry covers. */
export function sourceGaps(scope: Scope, covered: ReadonlySet<MarketId>): MarketId[] {
  return scopeMarkets(scope).filter((market) => !covered.has(market));
}

/** The latest buckets of one item (snapshots of every item: snapshot-page.ts). */
export function latestEnvelope(request: LatestRequest & { item: CatalogItem }) {
  const entries = itemEntries(request, request.item);
  const covered = new Set(entries.map((entry) => entry.market));
  return {
    ...latestHead(request),
    items: entries,
    nextCursor: null,
    sourceGaps: sourceGaps(request.scope, covered),
  };
}

export interface HistoryRequest {
  store: Pick<HistoryStore, 'readBucketRollups'>;
  catalog: Catalog;
  scope: Scope;
  buckets: readonly ParsedBucketId[];
  window: AttributeWindow;
  now: number;
  /** Newest points kept per bucket (null: all in the window). */
  limit: number | null;
}

async function bucketHistory(request: HistoryRequest, item: CatalogItem, bucket: ParsedBucketId) {
  const { tier, fromMs, toMs } = request.window;
  const id = `${bucket.market}:${bucket.itemId}:${bucket.key}`;
  const rows = await request.store.readBucketRollups(
    id,
    tier,
    bucketStart(fromMs, tier),
    bucketStart(toMs, tier) + TIER_MS[tier],
  );
  const shape = keyShape(bucket.key)!;
  return {
    bucketId: id,
    bucketKey: bucket.key,
    bucketType: 'attribute' as const,
    attributeType: shape.types[0]!,
    attributeTypes: shape.types,
    dimensions: shape.dimensions,
    sourceItemId: item.marketHashName,
    sourceBucketId: bucket.key,
    points: (request.limit === null ? rows : rows.slice(-request.limit)).map((row) => {
      const point = pointOf(row);
      return {
        ...point,
        bucketStart: iso(point.bucketStart),
        firstObservedAt: iso(point.firstObservedAt),
        lastObservedAt: iso(point.lastObservedAt),
      };
    }),
  };
}

/** Buckets grouped per (item, market) in request order; an unknown item is 404. */
export async function historyEnvelope(request: HistoryRequest) {
  const groups = new Map<string, { item: CatalogItem; market: MarketId; ids: ParsedBucketId[] }>();
  for (const bucket of request.buckets) {
    const item = request.catalog.byId(bucket.itemId);
    if (!item) throw notFound();
    const key = `${bucket.itemId}:${bucket.market}`;
    const group = groups.get(key) ?? { item, market: bucket.market, ids: [] };
    group.ids.push(bucket);
    groups.set(key, group);
  }
  const items = [];
  for (const group of groups.values()) {
    const buckets = [];
    for (const bucket of group.ids) buckets.push(await bucketHistory(request, group.item, bucket));
    const { id: canonicalItemId, marketHashName } = group.item;
    items.push({ canonicalItemId, marketHashName, market: group.market, buckets });
  }
  const observed = new Set(
    items.filter((entry) => entry.buckets.some((b) => b.points.length > 0)).map((e) => e.market),
  );
  return {
    bucketSchemaVersion: BUCKET_SCHEMA_VERSION,
    ...request.scope,
    currency: 'USD' as const,
    granularity: request.window.tier,
    asOf: iso(request.now),
    items,
    nextCursor: null,
    sourceGaps: scopeMarkets(request.scope).filter((market) => !observed.has(market)),
  };
}

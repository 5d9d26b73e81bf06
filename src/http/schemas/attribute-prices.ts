/** Schemas of the attribute-bucket routes (`/v1/attribute-prices/*`, `/v1/markets/buff163/*`). */
import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable, NullableObject, StringEnum, Timestamp } from './common.ts';
import { ATTRIBUTES } from '../../attributes/buckets.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';

const rangeFields = {
  min: Type.Number(),
  max: Type.Number(),
  minInclusive: Type.Boolean(),
  maxInclusive: Type.Boolean(),
};

const Dimensions = Type.Object({
  variant: Nullable(Type.String({ description: "The source's own phase label." })),
  float: NullableObject(rangeFields, 'Float band, half-open; never crosses an exterior.'),
  fade: NullableObject(rangeFields, 'Fade percent range (80..100).'),
  pattern: Type.Null(),
  paintSeed: Type.Null(),
  finishCatalog: Nullable(Type.Integer({ description: 'Paint index of the phase.' })),
  sourceTagId: Type.Null(),
  sourceTagName: Nullable(Type.String()),
  charmTemplate: Type.Null({ description: 'Keychain template; null (no source carries charms).' }),
  nameTag: Type.Null({ description: 'Name tag text; null (no bucket is keyed by one).' }),
  stickerScrape: Type.Null({
    description: 'Sticker scrape level; null (no bucket is keyed by one).',
  }),
});

const cents = (description: string) => Type.Integer({ description });

const identity = {
  bucketId: Type.String({ description: '<market>:<canonicalItemId>:<bucketKey>; stable.' }),
  bucketKey: Type.String(),
  bucketType: StringEnum(['attribute'] as const),
  attributeType: StringEnum(ATTRIBUTES),
  attributeTypes: Type.Array(StringEnum(ATTRIBUTES)),
  dimensions: Dimensions,
};

/** Where a bucket comes from: the item's name and the bucket key at the source. */
const source = () => ({
  sourceItemId: Type.String({ description: 'The market hash name of the item at the source.' }),
  sourceBucketId: Type.String({ description: 'The bucket key at the source (the bucketKey).' }),
});

const LatestBucket = Type.Object({
  ...identity,
  ...source(),
  askCents: cents('Cheapest listing in the bucket, USD cents.'),
  avgAskCents: cents('Mean of the listings, rounded half up.'),
  medianAskCents: cents('Median of the listings, rounded half up.'),
  bidCents: Nullable(cents("The market's best bid (buys any copy); null when none.")),
  askListingCount: Nullable(Type.Integer()),
  bidOrderCount: Nullable(Type.Integer()),
  sourceUpdatedAt: Timestamp(),
  collectedAt: Timestamp(),
});

const Point = Type.Object({
  bucketStart: Timestamp(),
  openAskCents: Type.Integer(),
  highAskCents: Type.Integer(),
  lowAskCents: Type.Integer(),
  closeAskCents: Type.Integer(),
  avgAskCents: Type.Integer(),
  closeBidCents: Nullable(Type.Integer()),
  askListingCount: Nullable(Type.Integer()),
  bidOrderCount: Nullable(Type.Integer()),
  firstObservedAt: Timestamp(),
  lastObservedAt: Timestamp(),
});

const HistoryBucket = Type.Object({ ...identity, ...source(), points: Type.Array(Point) });

const entry = <T extends TSchema>(bucket: T) =>
  Type.Object({
    canonicalItemId: Type.String(),
    marketHashName: Type.String(),
    market: Type.String(),
    buckets: Type.Array(bucket),
  });

const envelope = <T extends TSchema>(bucket: T, scope: 'markets' | 'market', history: boolean) =>
  Type.Object({
    bucketSchemaVersion: Type.Integer(),
    ...(scope === 'markets' ? { markets: Type.Array(Type.String()) } : { market: Type.String() }),
    currency: StringEnum(['USD'] as const),
    ...(history ? { granularity: StringEnum(TIERS) } : {}),
    asOf: Timestamp(),
    items: Type.Array(entry(bucket)),
    nextCursor: Nullable(Type.String()),
    sourceGaps: Type.Array(Type.String(), {
      description: 'Requested markets without coverage.',
    }),
  });

export const AttributeLatest = envelope(LatestBucket, 'markets', false);
export const AttributeHistory = envelope(HistoryBucket, 'markets', true);
export const NativeLatest = envelope(LatestBucket, 'market', false);
export const NativeHistory = envelope(HistoryBucket, 'market', true);

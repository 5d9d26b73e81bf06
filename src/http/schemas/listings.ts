/** Response schema of `/v1/pricing/:marketHashName/listings` and its `/v2` form. */
import { Type } from '@sinclair/typebox';
import { Nullable, NullableObject, StringEnum, Timestamp } from './common.ts';

const Listing = Type.Object({
  listingId: Nullable(Type.String({ description: "The market's own listing id." })),
  market: Type.String(),
  price: Type.Integer({ description: 'USD cents.' }),
  currency: StringEnum(['USD'] as const),
  floatValue: Nullable(Type.Number({ description: 'Wear float 0..1; null on Rust or unknown.' })),
  paintSeed: Nullable(Type.Integer()),
  paintIndex: Nullable(Type.Integer()),
  inspectLink: Nullable(Type.String()),
  stickers: Type.Array(Type.String(), { description: 'Sticker names; empty on Rust.' }),
  isStatTrak: Type.Boolean(),
  fetchedAt: Timestamp('When the market showed this listing last.'),
});

const FloatCoverage = Type.Object({
  coverage: StringEnum(['none', 'partial', 'complete'] as const),
  sampledListings: Type.Integer(),
  listingsWithFloat: Type.Integer(),
  marketsWithFloat: Type.Array(Type.String()),
  marketsWithoutFloat: Type.Array(Type.String()),
});

const FloatSummary = NullableObject(
  {
    observed: Type.Object({ min: Type.Number(), max: Type.Number() }),
    itemMin: Nullable(Type.Number({ description: "The skin's lowest possible float." })),
    itemMax: Nullable(Type.Number({ description: "The skin's highest possible float." })),
    observedSource: Type.Object({
      market: Type.String(),
      price: Type.Integer({ description: 'USD cents of the lowest-float listing.' }),
      fetchedAt: Timestamp(),
    }),
  },
  'null when no sampled listing has a float.',
);

export const Listings = Type.Object({
  marketHashName: Type.String(),
  canonicalItemId: Type.String(),
  totalListings: Type.Integer({ description: 'Listings the markets report for the item.' }),
  sampledListings: Type.Integer({ description: 'Individual listings held (before `limit`).' }),
  floatCoverage: FloatCoverage,
  floatSummary: FloatSummary,
  listings: Type.Array(Listing, { description: 'Cheapest first, at most `limit`.' }),
  calculatedAt: Timestamp(),
});

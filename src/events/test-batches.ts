/** IngestBatch builders for the change-bus tests (records from the store contract fixtures). */
import type { IngestBatch } from '../domain/quote.ts';
import { T0, bareListing, bareSide, listing, sale, side } from '../store/contract-fixtures.ts';

/** One of each record kind, full and bare, with a non-ASCII item id; `n` varies the values. */
export function sampleBatch(n = 0): IngestBatch {
  const itemId = `★ karambit-doppler-${n}-🌈`;
  return {
    sides: [side({ itemId, fetchedAt: T0 + n }), bareSide({ market: 'buff163' })],
    sales: [sale({ price: 9_999_999_999 - n, soldAt: T0 + n })],
    listings: [listing({ itemId, listingId: `L-${n}` }), bareListing()],
  };
}

/** A batch of `count` listings of about 440 bytes each in JSON. */
export function largeBatch(count: number): IngestBatch {
  return {
    sides: [side()],
    sales: [],
    listings: Array.from({ length: count }, (_, i) => listing({ listingId: `L-${i}`, price: i })),
  };
}

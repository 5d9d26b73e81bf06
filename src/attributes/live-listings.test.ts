/**
 * Listings as the live connectors parse them (their fixture expectations, which the connectors'
 * own tests hold true) cut into buckets: Buff163's phase from the paint index becomes the tag,
 * CSFloat's floats fall into 0.01 bins, against the real CS2 catalog.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fullCatalogs } from '../catalog/test-catalogs.ts';
import type { ListingObservation } from '../domain/observation.ts';
import type { ListingRecord } from '../domain/quote.ts';
import { deriveBuckets } from './buckets.ts';

const catalog = fullCatalogs().cs2;

function fixtureListings(market: string, file: string): ListingRecord[] {
  const path = join(import.meta.dirname, '..', 'markets', market, 'fixtures', file);
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as {
    expected: { observations: (ListingObservation | { kind: string })[] };
  };
  return fixture.expected.observations
    .filter((o): o is ListingObservation => o.kind === 'listing')
    .map((o) => ({
      ...o,
      itemId: catalog.byName(o.item)!.id,
      ingestedAt: o.fetchedAt,
      originalCurrency: o.currency,
    }));
}

describe('buckets from live connector listings', () => {
  test('buff163 Doppler sell orders: phase tags from the paint index, filed for the base item', () => {
    const listings = fixtureListings('buff163', 'sell-order-doppler.json');
    const base = catalog.byName('★ Karambit | Doppler (Factory New)')!;
    const buckets = deriveBuckets({ market: 'buff163', item: base, listings, bid: null });
    const tags = buckets.filter((b) => b.attributeTypes.join() === 'tag');
    assert.ok(tags.length >= 2);
    for (const bucket of tags) {
      assert.match(bucket.bucketKey, /^tag:(phase-[1-4]|ruby|sapphire|black-pearl)$/);
      assert.ok(listings.some((l) => l.phase === bucket.dimensions.variant));
    }
    const floats = buckets.filter((b) => b.attributeTypes.join() === 'float');
    assert.equal(
      floats.reduce((sum, b) => sum + b.askListingCount, 0),
      listings.filter((l) => l.floatValue !== null).length,
    );
  });

  test('csfloat listings: uniform 0.01 bins inside Factory New', () => {
    const listings = fixtureListings('csfloat', 'listings.json');
    const item = catalog.byId(listings[0]!.itemId)!;
    const own = listings.filter((l) => l.itemId === item.id);
    const buckets = deriveBuckets({ market: 'csfloat', item, listings: own, bid: null });
    assert.deepEqual(
      buckets.map((b) => b.bucketKey),
      ['float:0.02-0.03', 'float:0.06-0.07'],
    );
  });
});

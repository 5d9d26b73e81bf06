import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { CatalogItem } from '../../domain/item.ts';
import type { ListingObservation } from '../../domain/observation.ts';
import { createSimAdapters } from './adapters.ts';
import { floatBandOf } from './items.ts';
import { CS2_TEST_ITEMS, TEST_CATALOGS } from './test-catalog.ts';

const NOON = Date.parse('2026-11-01T12:00:00Z');
const adapters = createSimAdapters({ seed: 7, catalogs: TEST_CATALOGS, faults: false });
const byName = new Map(CS2_TEST_ITEMS.map((item) => [item.marketHashName, item]));
const PHASED = / (Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald) \(/;

/** The catalog entry a listing belongs to: a phase-named listing's is its Doppler base item. */
function itemOf(listing: ListingObservation): CatalogItem {
  return byName.get(listing.item) ?? byName.get(listing.item.replace(PHASED, ' ('))!;
}

async function listings(market: string, now: number): Promise<ListingObservation[]> {
  const adapter = adapters.find((a) => a.info.id === market)!;
  const body = await adapter.fetchRaw({ game: 'cs2', now });
  return adapter
    .parse(body, { game: 'cs2', now })
    .observations.filter((o): o is ListingObservation => o.kind === 'listing');
}

describe('simulated listings', () => {
  test('only float markets carry listings, and every one of them does', async () => {
    for (const adapter of adapters.filter((a) => a.info.games.includes('cs2'))) {
      const found = (await listings(adapter.info.id, NOON)).length > 0;
      assert.equal(found, adapter.info.capabilities.listings, adapter.info.id);
    }
  });

  test('floats fall inside the item float range and exterior; seeds in 0..1000', async () => {
    let checked = 0;
    for (const market of [
      'buff163',
      'csfloat',
      'dmarket',
      'waxpeer',
      'whitemarket',
      'avanmarket',
    ]) {
      for (const listing of await listings(market, NOON + 2 * HOUR)) {
        const item = itemOf(listing);
        const band = floatBandOf(item)!;
        assert.ok(
          listing.floatValue !== null &&
            listing.floatValue >= band.min &&
            listing.floatValue < band.max,
        );
        assert.ok(
          listing.floatValue >= (item.floatRange?.min ?? 0) &&
            listing.floatValue <= (item.floatRange?.max ?? 1),
        );
        assert.ok(
          listing.paintSeed === null ||
            (Number.isInteger(listing.paintSeed) &&
              listing.paintSeed >= 0 &&
              listing.paintSeed <= 1000),
        );
        assert.equal(listing.isStatTrak, item.marketHashName.includes('StatTrak™'));
        checked += 1;
      }
    }
    assert.ok(checked > 20);
  });

  test('Doppler listings carry a phase and its paint index', async () => {
    const base = byName.get('★ Karambit | Doppler (Factory New)')!;
    const phases = new Map(base.variants!.map((variant) => [variant.name, variant.paintIndex]));
    let dopplers = 0;
    for (const market of ['buff163', 'csfloat', 'dmarket', 'waxpeer']) {
      for (const listing of await listings(market, NOON)) {
        const item = itemOf(listing);
        if (item.variants) {
          assert.equal(phases.get(listing.phase!), listing.paintIndex);
          assert.equal(listing.item, `★ Karambit | Doppler ${listing.phase} (Factory New)`);
          dopplers += 1;
        } else if (item.variantOf) {
          assert.deepEqual([listing.phase, listing.paintIndex], [item.phase, item.paintIndex]);
          dopplers += 1;
        } else {
          assert.equal(listing.phase, null);
        }
      }
    }
    assert.ok(dopplers > 5);
  });

  test('a listing keeps its id, float and seed from one fetch to the next', async () => {
    const first = await listings('csfloat', NOON);
    const second = new Map((await listings('csfloat', NOON + MINUTE)).map((l) => [l.listingId, l]));
    const kept = first.filter((listing) => second.has(listing.listingId));
    assert.ok(kept.length > first.length / 2);
    for (const listing of kept) {
      const again = second.get(listing.listingId)!;
      assert.deepEqual(
        [again.floatValue, again.paintSeed, again.stickers],
        [listing.floatValue, listing.paintSeed, listing.stickers],
      );
    }
  });
});

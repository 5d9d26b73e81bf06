import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CatalogItem } from '../domain/item.ts';
import { cutCatalogData, cutItems } from './catalog-cut.ts';
import { fullCatalogs, fullCs2Registries } from './test-catalogs.ts';

const cs2 = fullCatalogs().cs2.items;
const DOPPLER = '★ Karambit | Doppler (Factory New)';
const REDLINE = 'AK-47 | Redline (Field-Tested)';
const popularity = (item: CatalogItem) => item.popularity ?? 0;
const categories = new Set(cs2.map((item) => item.category));
/** Each category's items, Doppler bases and phases aside (they come in with one another). */
const ranked = [...categories].map((category) =>
  cs2.filter((item) => item.category === category && !item.variantOf && !item.variants),
);

/** Per category: no item left out is more popular than one kept (ties may go either way). */
function assertMostPopularPerCategory(kept: readonly CatalogItem[]): void {
  const keptIds = new Set(kept.map((item) => item.id));
  for (const inCategory of ranked) {
    let least = Infinity;
    let mostPassedOver = -Infinity;
    for (const item of inCategory) {
      if (keptIds.has(item.id)) least = Math.min(least, popularity(item));
      else mostPassedOver = Math.max(mostPassedOver, popularity(item));
    }
    if (least !== Infinity) assert.ok(mostPassedOver <= least, `${inCategory[0]!.category}`);
  }
}

describe('catalog cut', () => {
  test('0 keeps every item, in catalog order', () => {
    assert.deepEqual(
      cutItems(cs2, { items: 0, keepNames: [] }).map((item) => item.id),
      cs2.map((item) => item.id),
    );
  });

  test('takes every category in turn, and keeps the named items and each Doppler with its phases', () => {
    const kept = cutItems(cs2, { items: 120, keepNames: [DOPPLER, REDLINE] });
    const names = new Set(kept.map((item) => item.marketHashName));
    assert.ok(names.has(REDLINE));
    assert.ok(names.has(DOPPLER));
    const doppler = cs2.find((item) => item.marketHashName === DOPPLER)!;
    const phases = cs2.filter((item) => item.variantOf === doppler.id);
    assert.ok(phases.length >= 4, 'the Doppler has phase entries');
    for (const phase of phases) assert.ok(names.has(phase.marketHashName), phase.marketHashName);
    assert.deepEqual(new Set(kept.map((item) => item.category)), categories);
    for (const category of categories) {
      const count = kept.filter((item) => item.category === category && !item.variantOf).length;
      assert.ok(count >= 5, `${category}: ${count}`);
    }
    assert.ok(kept.length < 200, `${kept.length} items`);
  });

  test('any size: the most popular of each category, every phase with its base, catalog order', () => {
    const positions = new Map(cs2.map((item, index) => [item.id, index]));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), (size) => {
        const kept = cutItems(cs2, { items: size, keepNames: [] });
        const keptIds = new Set(kept.map((item) => item.id));
        assert.ok(kept.length >= size);
        assertMostPopularPerCategory(kept);
        for (const item of kept) if (item.variantOf) assert.ok(keptIds.has(item.variantOf));
        const order = kept.map((item) => positions.get(item.id)!);
        assert.deepEqual(
          order,
          [...order].sort((a, b) => a - b),
        );
      }),
      { numRuns: 10 },
    );
  });

  test('cuts every game and leaves the registries whole', () => {
    const full = fullCatalogs();
    const registries = fullCs2Registries();
    const items = { cs2: [...full.cs2.items], rust: [...full.rust.items] };
    const data = { items, cs2Registries: registries };
    const cut = cutCatalogData(data, { items: 50, keepNames: ['Tempered AK47'] });
    const rustNames = cut.items.rust.map((item) => item.marketHashName);
    assert.ok(rustNames.includes('Tempered AK47'));
    assert.ok(rustNames.length === 50 || rustNames.length === 51, `${rustNames.length}`);
    assert.ok(cut.items.cs2.length >= 50 && cut.items.cs2.length < 120);
    assert.equal(cut.cs2Registries, registries);
    assert.equal(data.items.cs2.length, cs2.length, 'the input is left as it was');
  });
});

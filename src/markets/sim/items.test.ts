import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../../domain/item.ts';
import { buildSimGame, floatBandOf } from './items.ts';
import { CS2_TEST_ITEMS, RUST_TEST_ITEMS, syntheticCatalog } from './test-catalog.ts';

const skin = (extra: Partial<CatalogItem>): CatalogItem => ({
  id: 'x',
  game: 'cs2',
  marketHashName: 'P250 | Sand Dune (Field-Tested)',
  slug: 'x',
  category: 'skin',
  ...extra,
});

describe('simulator items', () => {
  test('float bands are the float range cut to the exterior', () => {
    assert.deepEqual(floatBandOf(skin({ floatRange: { min: 0.1, max: 0.7 } })), {
      min: 0.15,
      max: 0.38,
    });
    assert.deepEqual(floatBandOf(skin({ wear: 'FN', floatRange: { min: 0, max: 0.08 } })), {
      min: 0,
      max: 0.07,
    });
    assert.deepEqual(
      floatBandOf(skin({ marketHashName: '★ Karambit', floatRange: { min: 0.06, max: 0.8 } })),
      { min: 0.06, max: 0.8 },
    );
    assert.equal(floatBandOf(skin({ category: 'sticker' })), null);
    assert.equal(floatBandOf(RUST_TEST_ITEMS[0]!), null);
  });

  test('items rank most popular first; missing hints come from hashes', () => {
    const game = buildSimGame(1, 'cs2', CS2_TEST_ITEMS);
    assert.equal(game.items[0]!.name, 'Recoil Case');
    assert.deepEqual(game.stickerNames, ['Titan | Katowice 2014']);
    const doppler = game.items.find((item) => item.name.startsWith('★ Karambit | Doppler (F'))!;
    assert.equal(doppler.dopplers?.length, 7);
    const synthetic = buildSimGame(1, 'cs2', syntheticCatalog(500)).items;
    for (const item of synthetic) {
      assert.ok(item.popularity >= 0 && item.popularity <= 1);
      assert.ok(Number.isInteger(item.refCents) && item.refCents >= 3);
    }
    const popularities = synthetic.map((item) => item.popularity);
    assert.deepEqual(
      popularities,
      [...popularities].sort((a, b) => b - a),
    );
  });
});

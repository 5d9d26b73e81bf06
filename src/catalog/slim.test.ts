import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../domain/item.ts';
import { resolveItem } from './resolve-item.ts';
import { createSimWorld } from '../markets/sim/world.ts';
import { catalogsFrom } from './catalog-data.ts';
import { fullCatalogs, fullCs2Registries } from './test-catalogs.ts';
import { slimCatalogData, slimItem } from './slim.ts';

const full = fullCatalogs();
const slim = catalogsFrom(slimCatalogData(full, fullCs2Registries()));

const DOPPLER = '★ Karambit | Doppler (Factory New)';

describe('slim catalog data', () => {
  test('drops the display fields and keeps what ingest reads', () => {
    const item = full.cs2.byName(DOPPLER)!;
    const cut = slimItem(item);
    for (const field of ['image', 'collections', 'containers', 'rarity', 'wears', 'baseName']) {
      assert.equal(field in cut, false, field);
    }
    assert.equal(cut.id, item.id);
    assert.equal(cut.slug, item.slug);
    assert.equal(cut.weapon, item.weapon);
    assert.equal(cut.finish, item.finish);
    assert.deepEqual(cut.floatRange, item.floatRange);
    assert.deepEqual(
      cut.variants?.map(({ marketHashName, name, paintIndex }) => [
        marketHashName,
        name,
        paintIndex,
      ]),
      item.variants?.map(({ marketHashName, name, paintIndex }) => [
        marketHashName,
        name,
        paintIndex,
      ]),
    );
    assert.equal(
      cut.variants?.some((variant) => 'image' in variant),
      false,
    );
  });

  test('resolves every name, id and spliced phase as the full catalog does', () => {
    for (const game of ['cs2', 'rust'] as const) {
      assert.equal(slim[game].items.length, full[game].items.length);
      for (const item of full[game].items) {
        assert.equal(slim[game].resolve(item.marketHashName)?.id, item.id);
        assert.equal(slim[game].byId(item.id)?.marketHashName, item.marketHashName);
      }
    }
    const spliced = '★ Karambit | Doppler Phase 2 (Factory New)';
    assert.ok(resolveItem(full.cs2, spliced));
    assert.equal(resolveItem(slim.cs2, spliced)?.id, resolveItem(full.cs2, spliced)?.id);
  });

  test('gives the simulator the same world', () => {
    const view = (catalogs: typeof full) => {
      const world = createSimWorld({ seed: 7, catalogs, deepItems: [DOPPLER] });
      const rows = world.games.cs2!.items.map(({ item, ...rest }: { item: CatalogItem }) => ({
        ...rest,
        id: item.id,
        slug: item.slug,
        variantOf: item.variantOf,
      }));
      return { rows, stickers: world.games.cs2!.stickerNames, deep: world.deepRanks };
    };
    assert.deepEqual(view(slim), view(full));
  });
});

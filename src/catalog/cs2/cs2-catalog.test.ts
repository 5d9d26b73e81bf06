import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../../domain/item.ts';
import { loadCatalogs, loadCs2Registries } from '../load-catalogs.ts';
import { fullCatalogs } from '../test-catalogs.ts';
import { EXTERIORS, exteriorByName, exteriorsFor } from './exteriors.ts';

const catalog = fullCatalogs().cs2;
const items = catalog.items;
const EXTERIOR_SUFFIX = / \((Factory New|Minimal Wear|Field-Tested|Well-Worn|Battle-Scarred)\)$/;

function named(name: string): CatalogItem {
  const item = catalog.byName(name);
  assert.ok(item, `missing ${name}`);
  return item;
}

describe('CS2 catalog: known real items', () => {
  test('exist with Steam names', () => {
    for (const name of [
      'AK-47 | Redline (Field-Tested)',
      'StatTrak™ AK-47 | Redline (Field-Tested)',
      '★ StatTrak™ Karambit | Doppler (Factory New)',
      'AWP | Dragon Lore (Factory New)',
      'Souvenir AWP | Dragon Lore (Factory New)',
      'M4A4 | Howl (Minimal Wear)',
      '★ Karambit',
      '★ StatTrak™ Karambit',
      '★ Sport Gloves | Vice (Field-Tested)',
      'Sticker | Crown (Foil)',
      "Charm | Lil' Ava",
      'Music Kit | Noisia, Sharpened',
      'StatTrak™ Music Kit | Noisia, Sharpened',
      'CS:GO Weapon Case',
      'Operation Breakout Weapon Case',
      'Name Tag',
    ]) {
      named(name);
    }
  });

  test('is the size of the real market', () => {
    assert.ok(items.length > 30_000, `only ${items.length} items`);
    const count = (category: string) => items.filter((i) => i.category === category).length;
    assert.ok(count('skin') > 8_000);
    assert.ok(count('knife') > 2_000);
    assert.ok(count('gloves') > 300);
    assert.ok(count('sticker') > 5_000);
    assert.ok(count('container') > 300);
  });

  test('AK-47 | Redline carries its real float range, rarity and wears', () => {
    const redline = named('AK-47 | Redline (Field-Tested)');
    assert.equal(redline.category, 'skin');
    assert.equal(redline.weapon, 'AK-47');
    assert.equal(redline.finish, 'Redline');
    assert.equal(redline.baseName, 'AK-47 | Redline');
    assert.equal(redline.rarity, 'classified');
    assert.equal(redline.wear, 'Field-Tested');
    assert.deepEqual(redline.floatRange, { min: 0.1, max: 0.7 });
    assert.deepEqual(redline.wears, [
      'Minimal Wear',
      'Field-Tested',
      'Well-Worn',
      'Battle-Scarred',
    ]);
    assert.equal(catalog.byName('AK-47 | Redline (Factory New)'), undefined);
    assert.equal(redline.hasStattrak, true);
    assert.equal(redline.stattrak, undefined);
  });
});

describe('CS2 catalog: naming rules', () => {
  test('the star comes first, before StatTrak™, on knives and gloves only', () => {
    for (const item of items) {
      const name = item.marketHashName;
      const starred = item.category === 'knife' || item.category === 'gloves';
      assert.equal(name.startsWith('★ '), starred, name);
      assert.ok(!name.includes('StatTrak™ ★'), name);
    }
  });

  test('Souvenir and StatTrak™ never appear together', () => {
    for (const item of items) {
      const name = item.marketHashName;
      assert.ok(!(name.includes('Souvenir ') && name.includes('StatTrak™')), name);
      assert.ok(!(item.stattrak && item.souvenir), name);
    }
  });

  test('flags match the name prefixes (`StatTrak™ Radicals Box`, `StatTrak™ Swap Tool` aside)', () => {
    for (const item of items) {
      if (item.category === 'container' || item.category === 'tool') continue;
      const name = item.marketHashName.replace(/^★ /, '');
      assert.equal(item.stattrak === true, name.startsWith('StatTrak™ '), name);
      assert.equal(item.souvenir === true, name.startsWith('Souvenir '), name);
      if (item.stattrak) assert.equal(item.hasStattrak, true, name);
      if (item.souvenir) assert.equal(item.hasSouvenir, true, name);
    }
  });

  test('gloves are never StatTrak™', () => {
    const gloves = items.filter((item) => item.category === 'gloves');
    assert.ok(gloves.length > 0);
    for (const item of gloves) {
      assert.ok(!item.marketHashName.includes('StatTrak'), item.marketHashName);
      assert.equal(item.hasStattrak, undefined);
    }
  });

  test('vanilla knives have no exterior, float range or finish', () => {
    const vanilla = items.filter((item) => item.category === 'knife' && !item.finish);
    assert.ok(vanilla.length >= 20);
    for (const item of vanilla) {
      assert.doesNotMatch(item.marketHashName, /\(|\|/);
      assert.equal(item.wear, undefined);
      assert.equal(item.floatRange, undefined);
    }
  });

  test('exteriors respect the float range and wear bands', () => {
    for (const item of items) {
      const suffix = EXTERIOR_SUFFIX.exec(item.marketHashName);
      if (!item.floatRange) {
        assert.equal(suffix, null, item.marketHashName);
        continue;
      }
      assert.ok(suffix, item.marketHashName);
      const exterior = exteriorByName(suffix[1] as string);
      assert.ok(exterior);
      assert.equal(item.wear, exterior.name);
      assert.ok(
        item.floatRange.min < (exterior.code === 'BS' ? 2 : exterior.max),
        item.marketHashName,
      );
      assert.ok(item.floatRange.max > exterior.min, item.marketHashName);
      assert.ok(item.wears?.includes(exterior.name), item.marketHashName);
    }
  });

  test('items without wear carry no exterior', () => {
    for (const item of items) {
      if (
        ['sticker', 'charm', 'patch', 'agent', 'music_kit', 'container', 'tool'].includes(
          item.category,
        )
      ) {
        assert.equal(item.wear, undefined, item.marketHashName);
        assert.doesNotMatch(item.marketHashName, EXTERIOR_SUFFIX);
      }
    }
  });

  test('library prefixes Steam does not use are removed', () => {
    for (const item of items) {
      assert.doesNotMatch(item.marketHashName, /^(Container|Key|Tool|Agent|Collectible) \| /);
      if (item.category === 'graffiti') assert.match(item.marketHashName, /^Sealed Graffiti \| /);
    }
  });
});

describe('exteriorsFor', () => {
  test('uses half-open bands', () => {
    assert.deepEqual(
      exteriorsFor(0, 0.07).map((e) => e.code),
      ['FN'],
    );
    assert.deepEqual(
      exteriorsFor(0, 0.08).map((e) => e.code),
      ['FN', 'MW'],
    );
    assert.deepEqual(
      exteriorsFor(0.45, 1).map((e) => e.code),
      ['BS'],
    );
    assert.deepEqual(
      exteriorsFor(0, 1).map((e) => e.code),
      EXTERIORS.map((e) => e.code),
    );
  });
});

describe('CS2 catalog: identity', () => {
  // That two builds hand out the same ids is ../build-in-worker.test.ts's check (a thread's
  // build against an in-process one, every field compared).
  test('ids and slugs are unique', () => {
    assert.equal(new Set(items.map((item) => item.id)).size, items.length);
    assert.equal(new Set(items.map((item) => item.slug)).size, items.length);
    for (const item of items) assert.match(item.slug, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  test('loadCatalogs caches the built catalogs', () => {
    assert.equal(loadCatalogs().cs2, catalog);
  });

  test('registries cover the keys items refer to', () => {
    const registries = loadCs2Registries();
    const rarityKeys = new Set(registries.rarities.map((rarity) => rarity.key));
    for (const item of items) {
      if (item.rarity) assert.ok(rarityKeys.has(item.rarity), item.marketHashName);
      for (const key of item.containers ?? []) assert.ok(registries.containers[key], key);
      for (const key of item.collections ?? []) assert.ok(registries.collections[key], key);
    }
  });
});

describe('CS2 catalog: simulator reference data', () => {
  test('prices are positive integer cents and popularity is within 0..1', () => {
    for (const item of items) {
      assert.ok(Number.isSafeInteger(item.referencePriceCents), item.marketHashName);
      assert.ok((item.referencePriceCents ?? 0) > 0, item.marketHashName);
      assert.ok((item.popularity ?? -1) > 0 && (item.popularity ?? 2) <= 1, item.marketHashName);
    }
  });

  test('prices follow wear, StatTrak™, Souvenir and kind', () => {
    const price = (name: string) => named(name).referencePriceCents ?? 0;
    assert.ok(
      price('AWP | Dragon Lore (Factory New)') > price('AWP | Dragon Lore (Battle-Scarred)'),
    );
    assert.ok(
      price('StatTrak™ AK-47 | Redline (Field-Tested)') > price('AK-47 | Redline (Field-Tested)'),
    );
    assert.ok(
      price('Souvenir AWP | Dragon Lore (Factory New)') > price('AWP | Dragon Lore (Factory New)'),
    );
    assert.ok(price('★ Karambit | Doppler (Factory New)') > 10_000);
    assert.ok(price('AWP | Dragon Lore (Factory New)') > 100_000);
  });

  test('Factory New is dearer than Battle-Scarred for the same entry (above the 3¢ floor)', () => {
    for (const item of items) {
      if (item.wear !== 'Factory New') continue;
      const worn = catalog.byName(item.marketHashName.replace('(Factory New)', '(Battle-Scarred)'));
      if (!worn) continue;
      const fresh = item.referencePriceCents ?? 0;
      const scarred = worn.referencePriceCents ?? 0;
      assert.ok(scarred === 3 ? fresh >= 3 : fresh > scarred, item.marketHashName);
    }
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalId } from '../canonical-id.ts';
import { fullCatalogs } from '../test-catalogs.ts';
import { buildRust, parseRustList } from './build-rust.ts';

const catalog = fullCatalogs().rust;

describe('parseRustList', () => {
  test('reads item-type lines with semicolon-separated names', () => {
    assert.deepEqual(
      parseRustList('\nHoodie: Black Hoodie; Blue Hoodie\n\nJacket: No Mercy Jacket\n'),
      [
        { itemType: 'Hoodie', name: 'Black Hoodie' },
        { itemType: 'Hoodie', name: 'Blue Hoodie' },
        { itemType: 'Jacket', name: 'No Mercy Jacket' },
      ],
    );
  });
});

describe('Rust catalog', () => {
  test('holds at least 300 curated names, including the well-known ones', () => {
    assert.ok(catalog.items.length >= 300, `only ${catalog.items.length}`);
    for (const name of [
      'Black Hoodie',
      'Tempered AK47',
      'Alien Red',
      'Big Grin',
      'No Mercy Jacket',
      'Glory AK47',
    ]) {
      assert.ok(catalog.byName(name), name);
    }
  });

  test('names carry no wear, StatTrak™, Souvenir or star', () => {
    for (const item of catalog.items) {
      const name = item.marketHashName;
      assert.doesNotMatch(
        name,
        /\((Factory New|Minimal Wear|Field-Tested|Well-Worn|Battle-Scarred)\)/,
      );
      assert.doesNotMatch(name, /StatTrak|Souvenir|★|™/);
      assert.equal(name, name.trim());
      assert.equal(item.wear, undefined);
      assert.equal(item.wears, undefined);
      assert.equal(item.floatRange, undefined);
      assert.equal(item.stattrak, undefined);
      assert.equal(item.souvenir, undefined);
      assert.ok(item.category === 'skin' || item.category === 'other');
      assert.equal(item.game, 'rust');
    }
  });

  test('ids are canonical, stable and unique', () => {
    const rebuilt = buildRust();
    catalog.items.forEach((item, index) => {
      assert.equal(item.id, canonicalId('rust', item.marketHashName));
      assert.equal(rebuilt[index]?.id, item.id);
    });
    assert.equal(new Set(catalog.items.map((item) => item.id)).size, catalog.items.length);
  });

  test('reference prices and popularity are set', () => {
    for (const item of catalog.items) {
      assert.ok(
        Number.isSafeInteger(item.referencePriceCents) && (item.referencePriceCents ?? 0) > 0,
      );
      assert.ok((item.popularity ?? 0) > 0 && (item.popularity ?? 2) <= 1);
    }
    const price = (name: string) => catalog.byName(name)?.referencePriceCents ?? 0;
    assert.ok(price('Big Grin') > price('Black Hoodie'));
  });

  test('search works on Rust names', () => {
    assert.deepEqual(
      catalog.search('tempered ak').map((item) => item.marketHashName),
      ['Tempered AK47'],
    );
  });
});

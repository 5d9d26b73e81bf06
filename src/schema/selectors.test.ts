import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { selectItem, type Selectable } from './selectors.ts';

const items: Selectable[] = [
  {
    id: 'cs2_1',
    marketHashName: 'Desert Eagle | Sunset Storm 壱 (Factory New)',
    slug: 'desert-eagle-sunset-storm-factory-new',
  },
  {
    id: 'cs2_2',
    marketHashName: 'Desert Eagle | Sunset Storm 弐 (Factory New)',
    slug: 'desert-eagle-sunset-storm-factory-new-abc123',
  },
  {
    id: 'cs2_3',
    marketHashName: 'AK-47 | Redline (Field-Tested)',
    slug: 'ak-47-redline-field-tested',
  },
  { id: 'rust_4', marketHashName: 'Big Grin', slug: 'big-grin' },
  { id: 'rust_5', marketHashName: 'BIG GRIN', slug: 'big-grin-x' },
];

describe('item selectors', () => {
  test('exact name, canonical id and a unique slug select one item', () => {
    for (const selector of [
      'AK-47 | Redline (Field-Tested)',
      'cs2_3',
      'ak-47-redline-field-tested',
    ]) {
      assert.deepEqual(selectItem(items, selector), { item: items[2] });
    }
    assert.deepEqual(selectItem(items, 'desert-eagle-sunset-storm-factory-new-abc123'), {
      item: items[1],
    });
  });

  test('a name in another letter case selects its item when only one is so spelled', () => {
    assert.deepEqual(selectItem(items, 'ak-47 | REDLINE (field-tested)'), { item: items[2] });
  });

  test('a slug or folded name shared by several items is ambiguous, naming the candidates', () => {
    assert.deepEqual(selectItem(items, 'desert-eagle-sunset-storm-factory-new'), {
      candidates: [items[0], items[1]],
    });
    assert.deepEqual(selectItem(items, 'big grin'), { candidates: [items[3], items[4]] });
    assert.deepEqual(selectItem(items, 'Big Grin'), { item: items[3] });
  });

  test('unknown or empty selectors select nothing', () => {
    assert.equal(selectItem(items, 'no such item'), null);
    assert.equal(selectItem(items, ''), null);
  });

  test('the index follows a list that grows', () => {
    const growing = [...items];
    assert.equal(selectItem(growing, 'new-skin'), null);
    growing.push({ id: 'rust_6', marketHashName: 'New Skin', slug: 'new-skin' });
    assert.deepEqual(selectItem(growing, 'new-skin'), { item: growing[5] });
  });
});

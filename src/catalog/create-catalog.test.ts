import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalId } from './canonical-id.ts';
import { createCatalog } from './create-catalog.ts';
import { CatalogBuildError, finalizeItems } from './finalize.ts';
import type { ItemDraft } from './finalize.ts';

const DRAFTS: ItemDraft[] = [
  { marketHashName: 'Glory AK47', category: 'skin', weapon: 'Assault Rifle' },
  { marketHashName: 'Big Grin', category: 'skin' },
  { marketHashName: 'Cursed Cauldron', category: 'other' },
];

describe('finalizeItems', () => {
  test('adds id, game and slug and keeps the draft fields', () => {
    const [glory] = finalizeItems('rust', DRAFTS);
    assert.deepEqual(glory, {
      id: canonicalId('rust', 'Glory AK47'),
      game: 'rust',
      marketHashName: 'Glory AK47',
      slug: 'glory-ak47',
      category: 'skin',
      weapon: 'Assault Rifle',
    });
  });

  test('refuses a duplicate name', () => {
    assert.throws(
      () => finalizeItems('rust', [...DRAFTS, { marketHashName: 'Big Grin', category: 'skin' }]),
      CatalogBuildError,
    );
  });

  test('gives a clashing slug a stable suffix taken from the id', () => {
    const items = finalizeItems('cs2', [
      { marketHashName: 'Sticker | A-B', category: 'sticker' },
      { marketHashName: 'Sticker | A B', category: 'sticker' },
    ]);
    const second = items[1];
    assert.equal(items[0]?.slug, 'sticker-a-b');
    assert.ok(second);
    assert.equal(second.slug, `sticker-a-b-${second.id.slice(4, 10)}`);
  });
});

describe('createCatalog', () => {
  const items = finalizeItems('rust', DRAFTS);
  const catalog = createCatalog('rust', items, []);

  test('looks items up by exact name, id and slug', () => {
    const grin = items[1];
    assert.ok(grin);
    assert.equal(catalog.byName('Big Grin'), grin);
    assert.equal(catalog.byName('big grin'), undefined);
    assert.equal(catalog.byId(grin.id), grin);
    assert.equal(catalog.bySlug('big-grin'), grin);
    assert.equal(catalog.game, 'rust');
    assert.equal(catalog.items.length, 3);
  });

  test('resolve tries the exact name first, then the id', () => {
    const glory = items[0];
    assert.ok(glory);
    assert.equal(catalog.resolve('Glory AK47'), glory);
    assert.equal(catalog.resolve(glory.id), glory);
    assert.equal(catalog.resolve('glory-ak47'), undefined);
    const tricky = finalizeItems('rust', [
      { marketHashName: 'Plain', category: 'skin' },
      { marketHashName: canonicalId('rust', 'Plain'), category: 'skin' },
    ]);
    const trickyCatalog = createCatalog('rust', tricky, []);
    assert.equal(trickyCatalog.resolve(canonicalId('rust', 'Plain')), tricky[1]);
  });

  test('searches by word prefix', () => {
    assert.deepEqual(
      catalog.search('GLO').map((item) => item.marketHashName),
      ['Glory AK47'],
    );
    assert.deepEqual(
      catalog.search('c c').map((item) => item.marketHashName),
      ['Cursed Cauldron'],
    );
  });

  test('rejects items of another game and duplicate ids', () => {
    assert.throws(() => createCatalog('cs2', items, []), CatalogBuildError);
    assert.throws(
      () => createCatalog('rust', [...items, ...items.slice(0, 1)], []),
      CatalogBuildError,
    );
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../domain/errors.ts';
import type { CatalogItem } from '../domain/item.ts';
import { resolveBatchItems } from './batch-items.ts';
import { CS2_ITEMS, testCatalog } from './test-support.ts';

const clash = (id: string, name: string): CatalogItem => ({
  id,
  game: 'cs2',
  marketHashName: name,
  slug: id,
  category: 'skin',
});
const catalog = testCatalog('cs2', [
  ...CS2_ITEMS,
  clash('cs2-case-a', 'Sticker | Foo'),
  clash('cs2-case-b', 'Sticker | FOO'),
]);

describe('resolveBatchItems', () => {
  test('id, slugified name and folded name resolve; each item once; unknown and empty once each', () => {
    const { items, notFound } = resolveBatchItems(
      catalog,
      [
        '',
        'cs2-vulcan-mw',
        'ak-47-vulcan-minimal-wear',
        'nope',
        'AK-47 | VULCAN (MINIMAL WEAR)',
        '',
        'nope',
      ],
      'names',
    );
    assert.deepEqual(
      items.map((item) => item.id),
      ['cs2-vulcan-mw'],
    );
    assert.deepEqual(notFound, ['', 'nope']);
  });

  test('the exact spelling of a case-clashing name is not ambiguous', () => {
    const { items } = resolveBatchItems(catalog, ['Sticker | FOO', 'Sticker | Foo'], 'names');
    assert.deepEqual(
      items.map((item) => item.id),
      ['cs2-case-b', 'cs2-case-a'],
    );
  });

  test('every ambiguous entry is named in one 409', () => {
    assert.throws(
      () => resolveBatchItems(catalog, ['sticker | foo', 'cs2-redline-ft', 'sticker-foo'], 'names'),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.statusCode, 409);
        assert.equal(error.code, 'AMBIGUOUS_ITEM');
        assert.deepEqual(error.messages, [
          'names[0] "sticker | foo" matches 2 items; use the exact name: Sticker | Foo; Sticker | FOO',
          'names[2] "sticker-foo" matches 2 items; use the exact name: Sticker | Foo; Sticker | FOO',
        ]);
        return true;
      },
    );
  });
});

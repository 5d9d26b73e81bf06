import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import type { ListingObservation, Observation, SaleObservation } from '../domain/observation.ts';
import { PRICE_CEILING_CENTS } from './levels.ts';
import { cleanItemName } from '../catalog/resolve-item.ts';
import { normalise, type NormaliseContext } from './normalise.ts';
import { askObservation, TEST_FX, testCatalogs } from './test-fixtures.ts';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const ctx: NormaliseContext = { catalogs: testCatalogs(), fx: TEST_FX, now: NOW + 500 };

function sale(overrides: Partial<SaleObservation> = {}): SaleObservation {
  return {
    kind: 'sale',
    game: 'cs2',
    market: 'skinport',
    item: 'AK-47 | Redline (Field-Tested)',
    currency: 'USD',
    scale: 100,
    price: 1500,
    quantity: 1,
    soldAt: NOW - MINUTE,
    ...overrides,
  };
}

function listing(overrides: Partial<ListingObservation> = {}): ListingObservation {
  return {
    kind: 'listing',
    game: 'cs2',
    market: 'csfloat',
    item: 'AK-47 | Redline (Field-Tested)',
    currency: 'USD',
    scale: 100,
    listingId: 'L1',
    price: 1600,
    floatValue: 0.2134,
    paintSeed: 412,
    paintIndex: 282,
    phase: null,
    inspectLink: null,
    stickers: ['Crown (Foil)'],
    isStatTrak: false,
    fetchedAt: NOW,
    ...overrides,
  };
}

function reasonOf(observation: Observation, context: NormaliseContext = ctx): string {
  const { batch, rejected } = normalise([observation], context);
  if (rejected.length === 0) return 'accepted';
  assert.equal(batch.sides.length + batch.sales.length + batch.listings.length, 0);
  return rejected[0]!.reason;
}

describe('normalise: accepted observations', () => {
  test('an ask side becomes a snapshot in cents, best first, stamped with now', () => {
    const observation = askObservation({
      currency: 'EUR',
      levels: [
        { price: 2000, quantity: 1, orders: null },
        { price: 1000, quantity: 2, orders: 2 },
      ],
      listingCount: null,
      fetchedAt: NOW,
      sourceUpdatedAt: NOW - 1000,
      sourceTimeKind: 'last_modified',
    });
    const { batch, rejected } = normalise([observation], ctx);
    assert.deepEqual(rejected, []);
    assert.deepEqual(batch.sides, [
      {
        game: 'cs2',
        itemId: 'ak47-redline-ft',
        market: 'skinport',
        side: 'ask',
        levels: [
          { price: 1080, quantity: 2, orders: 2 },
          { price: 2160, quantity: 1, orders: null },
        ],
        listingCount: null,
        totalQuantity: 3,
        fetchedAt: NOW,
        ingestedAt: NOW + 500,
        sourceUpdatedAt: NOW - 1000,
        sourceTimeKind: 'last_modified',
        originalCurrency: 'EUR',
      },
    ]);
  });

  test('sales and listings convert their price and keep their fields', () => {
    const { batch } = normalise([sale({ currency: 'CNY', price: 10_000 }), listing()], ctx);
    assert.deepEqual(batch.sales, [
      {
        game: 'cs2',
        itemId: 'ak47-redline-ft',
        market: 'skinport',
        price: 1400,
        quantity: 1,
        soldAt: NOW - MINUTE,
        ingestedAt: NOW + 500,
        originalCurrency: 'CNY',
      },
    ]);
    assert.equal(batch.listings[0]!.price, 1600);
    assert.equal(batch.listings[0]!.floatValue, 0.2134);
    assert.deepEqual(batch.listings[0]!.stickers, ['Crown (Foil)']);
    assert.equal(batch.listings[0]!.ingestedAt, NOW + 500);
  });

  test('floats 0 and 1 and a null float are accepted', () => {
    for (const floatValue of [0, 1, null])
      assert.equal(reasonOf(listing({ floatValue })), 'accepted');
  });

  test('a fetch time up to 5 minutes ahead of now is tolerated', () => {
    assert.equal(reasonOf(askObservation({ fetchedAt: ctx.now + 5 * MINUTE })), 'accepted');
  });
});

describe('normalise: rejection reasons', () => {
  test('unknown_item: not in the catalog, or no catalog for the game', () => {
    assert.equal(reasonOf(askObservation({ item: 'AK-47 | Nope (Field-Tested)' })), 'unknown_item');
    const noRust = { ...ctx, catalogs: { cs2: testCatalogs().cs2 } };
    assert.equal(reasonOf(sale({ game: 'rust', item: 'Black Hoodie' }), noRust), 'unknown_item');
  });

  test('negative_price and absurd_price', () => {
    assert.equal(reasonOf(sale({ price: -100 })), 'negative_price');
    assert.equal(reasonOf(sale({ price: 0 })), 'absurd_price');
    assert.equal(reasonOf(sale({ price: PRICE_CEILING_CENTS + 1 })), 'absurd_price');
    const negativeLevel = [{ price: -1, quantity: 1, orders: 1 }];
    assert.equal(reasonOf(askObservation({ levels: negativeLevel })), 'negative_price');
    assert.equal(reasonOf(listing({ price: 0 })), 'absurd_price');
  });

  test('wrong_unit: fractional price, bad scale, unknown currency', () => {
    assert.equal(reasonOf(sale({ price: 15.5 })), 'wrong_unit');
    assert.equal(reasonOf(sale({ scale: 0 })), 'wrong_unit');
    assert.equal(reasonOf(askObservation({ currency: 'XYZ', levels: [] })), 'wrong_unit');
  });

  test('wrong_unit: a unit that disagrees with the market declaration', () => {
    const waxpeer = { ...ctx, expected: { waxpeer: { currency: 'USD', scale: 1000 } } };
    const centsBody = askObservation({ market: 'waxpeer', scale: 100 });
    const { rejected } = normalise([centsBody], waxpeer);
    assert.equal(rejected[0]?.reason, 'wrong_unit');
    assert.match(rejected[0]!.detail, /scale 100 but the market declares 1000/);
    assert.equal(reasonOf(askObservation({ market: 'waxpeer', scale: 1000 }), waxpeer), 'accepted');
    assert.equal(
      reasonOf(askObservation({ market: 'waxpeer', currency: 'EUR', scale: 1000 }), waxpeer),
      'wrong_unit',
    );
  });

  test('malformed: times in the future, bad counts, floats outside [0, 1]', () => {
    const tooLate = ctx.now + 5 * MINUTE + 1;
    assert.equal(reasonOf(askObservation({ fetchedAt: tooLate })), 'malformed');
    assert.equal(reasonOf(askObservation({ sourceUpdatedAt: tooLate })), 'malformed');
    assert.equal(reasonOf(askObservation({ fetchedAt: Number.NaN })), 'malformed');
    assert.equal(reasonOf(askObservation({ listingCount: -1 })), 'malformed');
    assert.equal(reasonOf(sale({ soldAt: tooLate })), 'malformed');
    assert.equal(reasonOf(sale({ quantity: 0 })), 'malformed');
    assert.equal(reasonOf(listing({ fetchedAt: tooLate })), 'malformed');
    assert.equal(reasonOf(listing({ floatValue: 1.2 })), 'malformed');
    assert.equal(reasonOf(listing({ floatValue: -0.01 })), 'malformed');
    assert.equal(reasonOf(listing({ listingId: '' })), 'malformed');
    assert.equal(reasonOf(listing({ paintSeed: -3 })), 'malformed');
    const badLevel = [{ price: 100, quantity: 0, orders: null }];
    assert.equal(reasonOf(askObservation({ levels: badLevel })), 'malformed');
  });

  test('a rejection names its market, item and input index; good ones are kept', () => {
    const observations = [
      askObservation(),
      sale({ price: -1 }),
      askObservation({ item: 'Nope', market: 'dmarket' }),
    ];
    const { batch, rejected } = normalise(observations, ctx);
    assert.equal(batch.sides.length, 1);
    assert.deepEqual(
      rejected.map(({ reason, market, item, index }) => ({ reason, market, item, index })),
      [
        {
          reason: 'negative_price',
          market: 'skinport',
          item: 'AK-47 | Redline (Field-Tested)',
          index: 1,
        },
        { reason: 'unknown_item', market: 'dmarket', item: 'Nope', index: 2 },
      ],
    );
  });
});

describe('normalise: item resolution', () => {
  const itemIdOf = (item: string) =>
    normalise([askObservation({ item })], ctx).batch.sides[0]?.itemId;

  test('exact names, canonical ids and HTML-entity spellings', () => {
    assert.equal(itemIdOf('AWP | Asiimov (Field-Tested)'), 'awp-asiimov-ft');
    assert.equal(itemIdOf('awp-asiimov-ft'), 'awp-asiimov-ft');
    assert.equal(itemIdOf('AWP  |  Asiimov (Field-Tested) '), 'awp-asiimov-ft');
    assert.equal(cleanItemName('Chef d&#39;Oeuvre &amp; &quot;x&quot;'), `Chef d'Oeuvre & "x"`);
  });

  test('spliced Doppler phases: the variant entry when the catalog has it, else the base', () => {
    assert.equal(itemIdOf('★ Karambit | Doppler Phase 2 (Factory New)'), 'karambit-doppler-fn-p2');
    assert.equal(itemIdOf('★ Karambit | Doppler Ruby (Factory New)'), 'karambit-doppler-fn');
    assert.equal(itemIdOf('★ Bayonet | Doppler Phase 3 (Factory New)'), 'bayonet-doppler-fn');
    assert.equal(itemIdOf('★ Bayonet | Gamma Doppler Phase 3 (Factory New)'), undefined);
  });

  test('two names landing on one item at one fetch time merge into one side', () => {
    const { batch } = normalise(
      [
        askObservation({ item: '★ Bayonet | Doppler Phase 1 (Factory New)', listingCount: 2 }),
        askObservation({
          item: '★ Bayonet | Doppler Phase 3 (Factory New)',
          levels: [
            { price: 1550, quantity: 1, orders: 1 },
            { price: 1200, quantity: 1, orders: 1 },
          ],
          listingCount: 5,
        }),
      ],
      ctx,
    );
    assert.equal(batch.sides.length, 1);
    assert.deepEqual(batch.sides[0]!.levels, [
      { price: 1200, quantity: 1, orders: 1 },
      { price: 1550, quantity: 4, orders: 4 },
    ]);
    assert.equal(batch.sides[0]!.listingCount, 7);
    assert.equal(batch.sides[0]!.totalQuantity, 5);
  });

  test('snapshots of one side at different fetch times stay separate, oldest first', () => {
    const { batch } = normalise(
      [askObservation({ fetchedAt: NOW }), askObservation({ fetchedAt: NOW - MINUTE })],
      ctx,
    );
    assert.deepEqual(
      batch.sides.map((side) => side.fetchedAt),
      [NOW - MINUTE, NOW],
    );
  });
});

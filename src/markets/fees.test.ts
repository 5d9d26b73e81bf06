import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';
import { applyFeeOverrides, DEFAULT_FEE_MODEL, FEE_FIELDS, feesFor, loadFeeModel } from './fees.ts';
import { DEFAULT_SELLER_FEE_BPS, FEE_MODEL_VERSION } from './fees-2026-11.ts';

describe('fee model 2026-11', () => {
  test('is versioned and covers every market', () => {
    assert.equal(DEFAULT_FEE_MODEL.version, '2026-11');
    assert.equal(FEE_MODEL_VERSION, '2026-11');
    for (const id of MARKET_IDS) assert.ok(feesFor(DEFAULT_FEE_MODEL, id), id);
  });

  const expected: [MarketId, number, boolean, boolean][] = [
    // market, seller bps, seller fee assumed, cash withdrawable
    ['csfloat', 200, false, true],
    ['buff163', 250, false, true],
    ['dmarket', 700, false, true],
    ['marketcsgo', 500, false, true],
    ['skinport', 1200, true, true],
    ['waxpeer', 500, true, true],
    ['lis-skins', 300, true, true],
    ['steamcommunity', 1500, false, false],
    ['swapgg', DEFAULT_SELLER_FEE_BPS, true, true],
    ['mannco-store', DEFAULT_SELLER_FEE_BPS, true, true],
  ];
  for (const [market, sellerBps, assumed, cash] of expected) {
    test(`${market}: seller ${sellerBps} bps, assumed ${assumed}, cash ${cash}`, () => {
      const fees = feesFor(DEFAULT_FEE_MODEL, market);
      assert.equal(fees.sellerFeeBps, sellerBps);
      assert.equal(fees.sources.sellerFeeBps.assumed, assumed);
      assert.equal(fees.cashWithdrawable, cash);
    });
  }

  test('every number is an integer in range and has a source', () => {
    for (const id of MARKET_IDS) {
      const fees = feesFor(DEFAULT_FEE_MODEL, id);
      for (const bps of [fees.sellerFeeBps, fees.buyerFeeBps]) {
        assert.ok(Number.isInteger(bps) && bps >= 0 && bps <= 10_000, id);
      }
      assert.ok(Number.isInteger(fees.withdrawalFlatCents) && fees.withdrawalFlatCents >= 0);
      for (const field of FEE_FIELDS) assert.ok(fees.sources[field].source.length > 0, id);
    }
  });

  test('steam is modelled as 15% of the gross price with non-cash proceeds', () => {
    const steam = feesFor(DEFAULT_FEE_MODEL, 'steamcommunity');
    assert.equal(steam.sellerFeeBps, 1500);
    assert.equal(steam.cashWithdrawable, false);
    assert.match(steam.sources.sellerFeeBps.source, /15%/);
  });
});

describe('loadFeeModel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fees-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  test('without a path returns the built-in model', () => {
    assert.equal(loadFeeModel(), DEFAULT_FEE_MODEL);
  });

  test('merges an override file over the built-in table', () => {
    const path = write(
      'ok.json',
      JSON.stringify({
        version: '2026-11-acme',
        markets: {
          skinport: { sellerFeeBps: 800 },
          csfloat: {
            withdrawalFlatCents: 25,
            sources: { withdrawalFlatCents: { source: 'stripe invoice', assumed: false } },
          },
        },
      }),
    );
    const model = loadFeeModel(path);
    assert.equal(model.version, '2026-11-acme');
    assert.equal(model.markets.skinport.sellerFeeBps, 800);
    assert.deepEqual(model.markets.skinport.sources.sellerFeeBps, {
      source: `override file ${path}`,
      assumed: false,
    });
    assert.equal(model.markets.csfloat.withdrawalFlatCents, 25);
    assert.equal(model.markets.csfloat.sources.withdrawalFlatCents.source, 'stripe invoice');
    assert.equal(model.markets.buff163.sellerFeeBps, 250);
    assert.equal(DEFAULT_FEE_MODEL.markets.skinport.sellerFeeBps, 1200, 'built-in untouched');
  });

  test('an override without a version gets a derived one', () => {
    const model = applyFeeOverrides(DEFAULT_FEE_MODEL, { markets: {} }, 'test');
    assert.equal(model.version, '2026-11+custom');
  });

  const invalid: [string, unknown, RegExp][] = [
    ['not an object', [1, 2], /expected a JSON object/],
    ['unknown top-level field', { markets: {}, fees: {} }, /unknown field "fees"/],
    ['empty version', { version: '' }, /version must be a non-empty string/],
    ['unknown market', { markets: { nowhere: {} } }, /markets\.nowhere: unknown market id/],
    [
      'negative fee',
      { markets: { csfloat: { sellerFeeBps: -1 } } },
      /sellerFeeBps must be a non-negative integer/,
    ],
    [
      'fractional fee',
      { markets: { csfloat: { buyerFeeBps: 2.5 } } },
      /buyerFeeBps must be a non-negative integer/,
    ],
    ['fee over 100%', { markets: { csfloat: { sellerFeeBps: 10_001 } } }, /at most 10000 bps/],
    [
      'non-boolean cash flag',
      { markets: { csfloat: { cashWithdrawable: 'yes' } } },
      /must be a boolean/,
    ],
    ['misspelled field', { markets: { csfloat: { sellerFee: 100 } } }, /unknown field "sellerFee"/],
    [
      'bad source',
      { markets: { csfloat: { sources: { sellerFeeBps: 'x' } } } },
      /must be \{"source"/,
    ],
  ];
  for (const [name, body, message] of invalid) {
    test(`rejects ${name}`, () => {
      const path = write(`${name.replace(/\W+/g, '-')}.json`, JSON.stringify(body));
      assert.throws(
        () => loadFeeModel(path),
        (error: Error) => {
          assert.match(error.message, message);
          assert.ok(error.message.includes(path), 'names the file');
          return true;
        },
      );
    });
  }

  test('lists every problem at once', () => {
    const body = { markets: { csfloat: { sellerFeeBps: -1, buyerFeeBps: 'x' } } };
    assert.throws(
      () => applyFeeOverrides(DEFAULT_FEE_MODEL, body, 'test'),
      /sellerFeeBps.*; .*buyerFeeBps/,
    );
  });

  test('rejects invalid JSON and a missing file', () => {
    const path = write('broken.json', '{ "markets": ');
    assert.throws(() => loadFeeModel(path), /invalid JSON/);
    assert.throws(() => loadFeeModel(join(dir, 'missing.json')), /cannot read/);
  });
});

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE } from '../domain/clock.ts';
import { DEFAULT_FEE_MODEL, feesFor } from '../markets/fees.ts';
import {
  adjustAsk,
  adjustBid,
  bestAdjustedAsk,
  bestAdjustedBid,
  buyerPays,
  executabilityOf,
  hasKnownDepth,
  sellerNets,
} from './execution.ts';
import { ask, bid, NOW, withFees, zeroFeeModel } from './test-fixtures.ts';

describe('fee arithmetic', () => {
  const zero = zeroFeeModel();
  const cases: [string, number, number, number, number][] = [
    // name, gross, seller bps, withdrawal cents, net
    ['no fees', 1000, 0, 0, 1000],
    ['csfloat 2%', 1000, 200, 0, 980],
    ['steam 15%', 1000, 1500, 0, 850],
    ['half-cent fee rounds up: 1234 × 2.5% = 30.85', 1234, 250, 0, 1203],
    ['flat withdrawal fee', 1000, 200, 30, 950],
    ['floored at zero', 10, 200, 50, 0],
  ];
  for (const [name, gross, sellerFeeBps, withdrawalFlatCents, net] of cases) {
    test(`seller nets: ${name}`, () => {
      const fees = { ...zero.markets.csfloat, sellerFeeBps, withdrawalFlatCents };
      assert.equal(sellerNets(gross, fees), net);
    });
  }

  test('buyer pays the price plus the buyer fee', () => {
    const fees = { ...zero.markets.dmarket, buyerFeeBps: 385 };
    assert.equal(buyerPays(1000, fees), 1039);
    assert.equal(buyerPays(1000, zero.markets.dmarket), 1000);
  });
});

describe('adjusted quotes', () => {
  test('a fresh counted ladder with known fees is fully executable', () => {
    const quote = adjustAsk(
      ask('csfloat', [
        [1000, 2],
        [1010, 1],
      ]),
      zeroFeeModel(),
      NOW,
    );
    assert.deepEqual(quote, {
      market: 'csfloat',
      price: 1000,
      rawPrice: 1000,
      appliedFeeBps: 0,
      executability: 1,
      updatedAt: '2026-11-01T11:59:00.000Z',
      isStale: false,
      reasons: [],
    });
  });

  test('exactly 30 minutes old is fresh; one millisecond more is stale', () => {
    const fresh = adjustAsk(
      ask('csfloat', [[1000], [1001]], { ageMs: 30 * MINUTE }),
      zeroFeeModel(),
      NOW,
    );
    const stale = adjustAsk(
      ask('csfloat', [[1000], [1001]], { ageMs: 30 * MINUTE + 1 }),
      zeroFeeModel(),
      NOW,
    );
    assert.equal(fresh.isStale, false);
    assert.deepEqual(fresh.reasons, []);
    assert.equal(stale.isStale, true);
    assert.deepEqual(stale.reasons, ['stale_quote']);
    assert.equal(stale.executability, 0.5);
  });

  test('a single uncounted price has unknown executable depth', () => {
    const single = ask('skinport', [[1000, 40, null]]);
    assert.equal(hasKnownDepth(single), false);
    assert.equal(hasKnownDepth(ask('skinport', [[1000, 40, 3]])), true);
    assert.equal(hasKnownDepth(ask('skinport', [[1000, 0, 3]])), false);
    const quote = adjustAsk(single, zeroFeeModel(), NOW);
    assert.deepEqual(quote.reasons, ['unknown_executable_depth']);
    assert.equal(quote.executability, 0.7);
  });

  test('assumed fees are flagged and lower executability', () => {
    const quote = adjustAsk(ask('dmarket', [[1000], [1001]]), DEFAULT_FEE_MODEL, NOW);
    assert.deepEqual(quote.reasons, ['assumed_fees']);
    assert.equal(quote.executability, 0.9);
  });

  test('a bid nets gross minus commission and withdrawal fee', () => {
    const model = withFees(zeroFeeModel(), {
      buff163: { sellerFeeBps: 250, withdrawalFlatCents: 20 },
    });
    const quote = adjustBid(bid('buff163', [[2000], [1990]]), model, NOW);
    assert.equal(quote.rawPrice, 2000);
    assert.equal(quote.price, 2000 - 50 - 20);
    assert.equal(quote.appliedFeeBps, 250);
    assert.equal(quote.withdrawalFlatUsdCents, 20);
  });

  test('a wallet-credit bid is flagged and uses the 15% model', () => {
    const quote = adjustBid(bid('steamcommunity', [[1000], [990]]), DEFAULT_FEE_MODEL, NOW);
    assert.equal(quote.price, 850);
    assert.equal(quote.appliedFeeBps, 1500);
    assert.deepEqual(quote.reasons, ['wallet_credit_only']);
    assert.equal(quote.executability, 0.5);
  });

  test('factors multiply', () => {
    assert.equal(
      executabilityOf(['assumed_fees', 'unknown_executable_depth', 'stale_quote']),
      0.315,
    );
    assert.equal(executabilityOf([]), 1);
  });
});

describe('best adjusted quote', () => {
  test('the best net bid may come from a market other than the best gross bid', () => {
    const bids = [bid('skinport', [[1000]]), bid('csfloat', [[950]])];
    const best = bestAdjustedBid(bids, DEFAULT_FEE_MODEL, NOW);
    assert.equal(best?.market, 'csfloat');
    assert.equal(best?.price, 950 - 19);
    assert.equal(sellerNets(1000, feesFor(DEFAULT_FEE_MODEL, 'skinport')), 880);
  });

  test('the best total ask may come from a market other than the cheapest listing', () => {
    const model = withFees(zeroFeeModel(), { dmarket: { buyerFeeBps: 500 } });
    const asks = [ask('dmarket', [[1000]]), ask('csfloat', [[1040]])];
    const best = bestAdjustedAsk(asks, model, NOW);
    assert.equal(best?.market, 'csfloat');
    assert.equal(best?.price, 1040);
  });

  test('ties go to the most recently fetched quote', () => {
    const asks = [
      ask('csfloat', [[1000]], { ageMs: 5000 }),
      ask('buff163', [[1000]], { ageMs: 1000 }),
    ];
    assert.equal(bestAdjustedAsk(asks, zeroFeeModel(), NOW)?.market, 'buff163');
  });

  test('no sides, no quote', () => {
    assert.equal(bestAdjustedAsk([], zeroFeeModel(), NOW), null);
    assert.equal(bestAdjustedBid([], zeroFeeModel(), NOW), null);
  });
});

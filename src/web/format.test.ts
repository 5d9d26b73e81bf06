import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { age, bps, dollars, feePercent, percent } from './format.ts';
import { parseRoute } from './route.ts';

describe('terminal display rules', () => {
  test('dollars: two decimals, grouped, negative and missing values', () => {
    assert.equal(dollars(0), '$0.00');
    assert.equal(dollars(5), '$0.05');
    assert.equal(dollars(1550), '$15.50');
    assert.equal(dollars(123_456_789), '$1,234,567.89');
    assert.equal(dollars(-1999), '-$19.99');
    assert.equal(dollars(null), '—');
  });

  test('dollars is exact for every integer cent amount (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        const text = dollars(cents);
        const digits = text.replace(/[^0-9]/g, '');
        const back = Number(digits) * (text.startsWith('-') ? -1 : 1);
        return back === cents && /\.\d\d$/.test(text);
      }),
    );
  });

  test('bps, percentages and fees', () => {
    assert.equal(bps(1234), '1,234 bps');
    assert.equal(bps(null), '—');
    assert.equal(percent(0.275), '27.5%');
    assert.equal(feePercent(250), '2.5%');
    assert.equal(feePercent(200), '2%');
    assert.equal(feePercent(0), '0%');
  });

  test('ages from served timestamps', () => {
    const now = Date.parse('2026-11-01T12:00:00Z');
    assert.equal(age('2026-11-01T11:59:15Z', now), '45s');
    assert.equal(age('2026-11-01T11:20:00Z', now), '40m');
    assert.equal(age('2026-11-01T09:30:00Z', now), '2h 30m');
    assert.equal(age('2026-10-29T12:00:00Z', now), '3d');
    assert.equal(age(null, now), 'never');
  });

  test('routes by hash', () => {
    assert.deepEqual(parseRoute(''), { view: 'home' });
    assert.deepEqual(parseRoute('#/item/rust/Tempered%20AK47'), {
      view: 'item',
      game: 'rust',
      name: 'Tempered AK47',
    });
    assert.deepEqual(parseRoute(`#/item/cs2/${encodeURIComponent('Sticker | A/B Test')}`), {
      view: 'item',
      game: 'cs2',
      name: 'Sticker | A/B Test',
    });
    assert.deepEqual(parseRoute('#/markets/rust'), { view: 'markets', game: 'rust' });
    assert.deepEqual(parseRoute('#/arbitrage'), { view: 'arbitrage' });
  });
});

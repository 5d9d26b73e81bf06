import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR } from '../domain/clock.ts';
import { evidenceByMarket, evidenceFromSales, evidenceFromStats } from './sales-rate.ts';
import { evenSales, sale, stats } from './test-fixtures.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('evidenceFromSales', () => {
  test('the 24-hour window when it holds 30 sales: units / 24 h', () => {
    const found = evidenceFromSales(evenSales('csfloat', 36, NOW - HOUR, 39 * 60_000), NOW)!;
    assert.equal(found.windowMs, DAY);
    assert.equal(found.sales, 36);
    assert.equal(found.units, 36);
    assert.equal(found.unitsPerDay, 36);
    assert.equal(found.latestAt, NOW - HOUR);
  });

  test('fewer than 30 in 24 h: widens to 7 days, then 30 days', () => {
    const weekly = evidenceFromSales(evenSales('csfloat', 35, NOW - HOUR, 4.8 * HOUR), NOW)!;
    assert.equal(weekly.windowMs, 7 * DAY);
    assert.equal(weekly.unitsPerDay, 5);
    const monthly = evidenceFromSales(evenSales('csfloat', 6, NOW - HOUR, 5.5 * DAY), NOW)!;
    assert.equal(monthly.windowMs, 30 * DAY);
    assert.equal(monthly.sales, 6);
    assert.equal(monthly.unitsPerDay, 6 / 30);
  });

  test('first sale late in the window: the span is since it plus one mean gap', () => {
    // 4 sales over the last 3 days in a 30-day window: span 3 d × 5/4 = 3.75 d.
    const found = evidenceFromSales(evenSales('csfloat', 4, NOW, DAY), NOW)!;
    assert.equal(found.windowMs, 30 * DAY);
    assert.equal(found.unitsPerDay, 4 / 3.75);
  });

  test('quantities count as units; future sales and sales older than 30 days are ignored', () => {
    const sales = [
      sale('csfloat', NOW - 40 * DAY),
      ...evenSales('csfloat', 9, NOW - HOUR, HOUR),
      sale('csfloat', NOW - 30 * 60_000, 3),
      sale('csfloat', NOW + HOUR, 5),
    ];
    const found = evidenceFromSales(sales, NOW)!;
    assert.equal(found.sales, 10);
    // 12 units since the first sale 9 h ago, plus one mean gap: 9 h × 11/10.
    assert.equal(found.unitsPerDay, (12 * 24) / 9.9);
    assert.equal(found.latestAt, NOW - 30 * 60_000);
  });

  test('nothing sold in 30 days: no evidence', () => {
    assert.equal(evidenceFromSales([], NOW), null);
    assert.equal(evidenceFromSales([sale('csfloat', NOW - 31 * DAY)], NOW), null);
  });
});

describe('evidenceFromStats', () => {
  test('the shortest window with volume 30, its age the fetch time', () => {
    const found = evidenceFromStats([
      stats('skinport', '30d', 90, NOW - HOUR),
      stats('skinport', '24h', 4, NOW - HOUR),
      stats('skinport', '7d', 35, NOW - 2 * HOUR),
    ])!;
    assert.equal(found.windowMs, 7 * DAY);
    assert.equal(found.unitsPerDay, 5);
    assert.equal(found.latestAt, NOW - 2 * HOUR);
  });

  test('no window reaching 10: the longest with any volume; none sold: null', () => {
    const found = evidenceFromStats([
      stats('skinport', '24h', 1, NOW),
      stats('skinport', '90d', 9, NOW),
    ])!;
    assert.equal(found.unitsPerDay, 9 / 90);
    assert.equal(evidenceFromStats([stats('skinport', '7d', 0, NOW)]), null);
  });
});

test('evidenceByMarket: single sales of that market win; statistics fill in', () => {
  const sales = [sale('dmarket', NOW - 31 * DAY), ...evenSales('csfloat', 30, NOW, 49 * 60_000)];
  const published = [stats('skinport', '24h', 48, NOW), stats('csfloat', '24h', 1000, NOW)];
  const found = evidenceByMarket(['csfloat', 'skinport', 'dmarket'], sales, published, NOW);
  assert.equal(found.get('csfloat')!.unitsPerDay, 30);
  assert.equal(found.get('skinport')!.unitsPerDay, 48);
  assert.equal(found.get('dmarket'), null);
});

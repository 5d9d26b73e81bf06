import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { Book } from '../book/book.ts';
import { manualClock, MINUTE } from '../domain/clock.ts';
import { side } from '../pricing/snapshot-fixtures.ts';
import { registerQuoteAgeMetrics, SLICE_SLOTS } from './quote-metrics.ts';
import { parseSamples, total } from './test-support.ts';

const T0 = Date.parse('2026-11-01T12:00:00Z');

function setup() {
  const clock = manualClock(T0);
  const book = new Book();
  const registry = new Registry();
  registerQuoteAgeMetrics(registry, book, clock);
  const put = (kind: 'ask' | 'bid', itemId: string, market: 'skinport' | 'csfloat', at: number) =>
    book.apply({
      sides: [side(kind, { market, prices: [1000], fetchedAt: at, itemId, game: 'cs2' })],
      sales: [],
      listings: [],
    });
  return { clock, book, put, scrape: async () => parseSamples(await registry.metrics()) };
}

describe('quote age metrics, computed at scrape time from the book', () => {
  test('quoted sides, stale sides and their share per game and market; the newest age', async () => {
    const { clock, put, scrape } = setup();
    put('ask', 'a', 'skinport', T0 - 40 * MINUTE);
    put('ask', 'b', 'skinport', T0 - 10 * MINUTE);
    put('bid', 'b', 'skinport', T0 - 31 * MINUTE);
    put('ask', 'c', 'skinport', T0 - 2 * MINUTE);
    put('ask', 'a', 'csfloat', T0 - MINUTE);

    let samples = await scrape();
    const skinport = { game: 'cs2', market: 'skinport' };
    const csfloat = { game: 'cs2', market: 'csfloat' };
    assert.equal(total(samples, 'pricing_quotes', skinport), 4);
    assert.equal(total(samples, 'pricing_quotes_stale', skinport), 2);
    assert.equal(total(samples, 'pricing_quotes_stale_ratio', skinport), 0.5);
    assert.equal(total(samples, 'pricing_quote_newest_age_seconds', skinport), 120);
    assert.equal(total(samples, 'pricing_quotes_stale_ratio', csfloat), 0);
    assert.equal(total(samples, 'pricing_quotes', { game: 'rust' }), null, 'no rust data held');

    clock.advance(25 * MINUTE);
    samples = await scrape();
    assert.equal(total(samples, 'pricing_quotes_stale', skinport), 3, 'the injected clock moved');
    assert.equal(total(samples, 'pricing_quotes_stale_ratio', csfloat), 0, '26 minutes old');
    clock.advance(5 * MINUTE);
    samples = await scrape();
    assert.equal(total(samples, 'pricing_quotes_stale_ratio', csfloat), 1, '31 minutes old');
    assert.equal(total(samples, 'pricing_quote_newest_age_seconds', csfloat), 31 * 60);
  });

  test('sides without a level are not quotes; the scan yields between slices of slots', async () => {
    const { book, put, scrape } = setup();
    const items = 2 * SLICE_SLOTS + 1;
    for (let index = 0; index < items; index += 1) put('ask', `item-${index}`, 'skinport', T0);
    const empty = side('bid', { market: 'skinport', prices: [], fetchedAt: T0, itemId: 'item-0' });
    book.apply({ sides: [empty], sales: [], listings: [] });
    let turns = 0;
    let scraped = false;
    const turn = () => {
      turns += 1;
      if (!scraped) setImmediate(turn);
    };
    setImmediate(turn);
    const samples = await scrape();
    scraped = true;
    assert.equal(total(samples, 'pricing_quotes', { game: 'cs2', market: 'skinport' }), items);
    assert.ok(turns >= 2, `the event loop turned ${turns} times during the scan`);
  });

  test('an empty book exposes no quote series', async () => {
    const { scrape } = setup();
    assert.equal(total(await scrape(), 'pricing_quotes'), null);
  });
});

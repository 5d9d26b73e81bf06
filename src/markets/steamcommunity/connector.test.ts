/**
 * The Steam connector's own pieces: the listing-page scrape, the strict USD and count readers,
 * the encoded listing path, and two polls against the loopback stand-in — the first learns an
 * item_nameid from the listing page, the second goes straight to the histogram.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../domain/clock.ts';
import { createMarketHttp } from '../http/http-client.ts';
import { ConnectorAdapter, type PollBody } from '../live/connector-adapter.ts';
import { servedFixtures, type ResponseFixture } from '../testing/fixtures.ts';
import { startStandIn } from '../testing/stand-in.ts';
import { connector } from './connector.ts';
import { scrapeItemNameId } from './parse-orders.ts';
import { MAX_REQUESTS_PER_POLL } from './plan.ts';
import { listingPath } from './steam.ts';
import { readSteamCount, readUsdText, usdTextCents } from './steam-text.ts';

describe('steamcommunity: listing page scrape', () => {
  test('finds the id however the call is spaced', () => {
    assert.equal(scrapeItemNameId('x Market_LoadOrderSpread( 176000861 ); y'), '176000861');
    assert.equal(scrapeItemNameId('Market_LoadOrderSpread(42);'), '42');
    assert.equal(scrapeItemNameId('Market_LoadOrderSpread(\n\t7 )'), '7');
  });
  test('nothing on a page without the call or with a non-numeric argument', () => {
    assert.equal(scrapeItemNameId('<div>There are no listings for this item.</div>'), null);
    assert.equal(scrapeItemNameId('Market_LoadOrderSpread( item_nameid )'), null);
  });
});

describe('steamcommunity: display strings', () => {
  test('USD amounts to cents', () => {
    assert.equal(usdTextCents('$0.03'), 3);
    assert.equal(usdTextCents('$36.55'), 3655);
    assert.equal(usdTextCents('$1,234.56'), 123456);
    assert.equal(usdTextCents('$12,345,678.90'), 1234567890);
    assert.equal(usdTextCents('$1.23 USD'), 123);
  });
  test('other currencies and locales are refused, never reinterpreted', () => {
    for (const text of [
      '36,55€',
      '$1.234,56',
      'CDN$ 1.23',
      'A$ 1.23',
      '1.23',
      '$1',
      '$1.2',
      '$1,23',
      '¥ 12',
    ]) {
      assert.equal(usdTextCents(text), null, text);
    }
    const euro = readUsdText('36,55€');
    assert.ok(!euro.ok && euro.rejection.reason === 'wrong_unit');
    const negative = readUsdText('-$1.00');
    assert.ok(!negative.ok && negative.rejection.reason === 'negative_price');
    const zero = readUsdText('$0.00');
    assert.ok(!zero.ok && zero.rejection.reason === 'absurd_price');
    const empty = readUsdText('');
    assert.ok(!empty.ok && empty.rejection.reason === 'malformed');
  });
  test('counts with comma thousands', () => {
    assert.equal(readSteamCount('12,345'), 12345);
    assert.equal(readSteamCount(' 88 '), 88);
    assert.equal(readSteamCount(1077), 1077);
    for (const value of ['1.247', '12,34', 'lots', -1, 1.5, null]) {
      assert.equal(readSteamCount(value), null, String(value));
    }
  });
});

describe('steamcommunity: listing path', () => {
  test('RFC 3986-encodes the name and survives the URL parser unchanged', () => {
    const path = listingPath('cs2', '★ StatTrak™ Karambit | Doppler (Factory New)');
    assert.equal(
      path,
      '/market/listings/730/%E2%98%85%20StatTrak%E2%84%A2%20Karambit%20%7C%20Doppler%20%28Factory%20New%29',
    );
    assert.equal(new URL(`https://steamcommunity.com${path}`).pathname, path);
    assert.equal(
      listingPath('rust', "Hazmat's #1 Suit?"),
      '/market/listings/252490/Hazmat%27s%20%231%20Suit%3F',
    );
  });
});

/** Each game's search page at 20 as the catalog's end, so the second poll's search wraps. */
function catalogEnds(fixtures: ResponseFixture[]): ResponseFixture[] {
  return fixtures
    .filter((fixture) => fixture.request.kind === 'search' && fixture.request.query?.start === 10)
    .map((fixture) => ({
      ...fixture,
      file: `${fixture.file} (start 20)`,
      request: { ...fixture.request, query: { ...fixture.request.query, start: 20 } },
      response: { status: 200, body: { success: true, start: 20, total_count: 20, results: [] } },
    }));
}

const served = servedFixtures('steamcommunity');

describe('steamcommunity: polls against the stand-in', () => {
  test('the first poll scrapes the item_nameid, the next asks the histogram directly', async () => {
    const standIn = await startStandIn('steamcommunity', [...served, ...catalogEnds(served)]);
    const http = createMarketHttp({ clock: systemClock });
    const adapter = new ConnectorAdapter({
      connector,
      channel: http.channel('steamcommunity', { limits: connector.info.limits }),
      baseUrl: standIn.url,
      cadenceMs: connector.info.cadenceMs,
      credentials: {},
      clock: systemClock,
      priorities: (game) => (game === 'cs2' ? ['AK-47 | Redline (Field-Tested)'] : ['Glory AK47']),
    });
    try {
      const kinds: string[][] = [];
      for (let poll = 0; poll < 2; poll += 1) {
        for (const game of connector.info.games) {
          const before = standIn.loopback.received.length;
          const body = (await adapter.fetchRaw({ game, now: Date.now() })) as PollBody;
          assert.deepEqual(body.failures, [], `${game} poll ${poll}`);
          const sent = standIn.loopback.received.slice(before);
          assert.ok(sent.length <= MAX_REQUESTS_PER_POLL);
          kinds.push(sent.map((request) => request.path.split('/')[2]!));
          const parsed = adapter.parse(body);
          assert.deepEqual(parsed.rejected, []);
          assert.ok(parsed.observations.some((o) => o.kind === 'book' && o.side === 'bid'));
          assert.ok(parsed.observations.some((o) => o.kind === 'sales_stats'));
        }
      }
      const firstCs2 = ['listings', 'priceoverview', 'search', 'itemordershistogram', 'search'];
      assert.deepEqual(kinds[0], firstCs2);
      assert.deepEqual(kinds[2], ['itemordershistogram', 'priceoverview', 'search']);
      assert.deepEqual(kinds[3], ['itemordershistogram', 'priceoverview', 'search']);
    } finally {
      await http.close();
      await standIn.close();
    }
  });
});

/**
 * A keyed Market.CSGO poll end to end against the loopback stand-in: with a key and two wanted
 * names the poll sends the exports, a bid-ask per name and one sales request (the key only on
 * the keyed ones), every one of them answered by a served fixture.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../domain/clock.ts';
import { createMarketHttp } from '../http/http-client.ts';
import { ConnectorAdapter, type PollBody } from '../live/connector-adapter.ts';
import { startStandIn } from '../testing/stand-in.ts';
import { connector } from './connector.ts';

const WANTED = ['AK-47 | Redline (Field-Tested)', '★ Karambit | Doppler (Factory New)'];

test('marketcsgo: a keyed poll is fully served and yields asks, bids, ladders and sales', async () => {
  const standIn = await startStandIn('marketcsgo');
  const http = createMarketHttp({ clock: systemClock });
  try {
    const adapter = new ConnectorAdapter({
      connector,
      channel: http.channel('marketcsgo', { limits: connector.info.limits }),
      baseUrl: standIn.url,
      cadenceMs: connector.info.cadenceMs,
      credentials: { PRICING_MARKETCSGO_API_KEY: 'k-secret' },
      clock: systemClock,
      priorities: () => WANTED,
    });
    const body = (await adapter.fetchRaw({ game: 'cs2', now: Date.now() })) as PollBody;
    assert.deepEqual(body.failures, []);
    const paths = standIn.loopback.received.map((request) => request.url.pathname);
    assert.deepEqual(paths, [
      '/api/v2/prices/USD.json',
      '/api/v2/prices/orders/USD.json',
      '/api/v2/bid-ask',
      '/api/v2/bid-ask',
      '/api/v2/get-list-items-info',
    ]);
    const keys = standIn.loopback.received.map((request) => request.url.searchParams.get('key'));
    assert.deepEqual(keys, [null, null, 'k-secret', 'k-secret', 'k-secret']);
    const parsed = adapter.parse(body);
    const kinds = new Set(parsed.observations.map((o) => (o.kind === 'book' ? o.side : o.kind)));
    assert.deepEqual([...kinds].sort(), ['ask', 'bid', 'sale']);
    assert.ok(parsed.observations.every((o) => o.currency === 'USD' && o.scale === 1000));
  } finally {
    await http.close();
    await standIn.close();
  }
});

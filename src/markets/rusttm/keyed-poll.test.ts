/**
 * A keyed RUST.TM poll end to end against the loopback stand-in: the exports, a bid-ask for the
 * wanted name and its sales request are all answered by served fixtures, in milli-dollars.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../domain/clock.ts';
import { createMarketHttp } from '../http/http-client.ts';
import { ConnectorAdapter, type PollBody } from '../live/connector-adapter.ts';
import { startStandIn } from '../testing/stand-in.ts';
import { connector } from './connector.ts';

test('rusttm: a keyed poll is fully served and yields asks, bids, ladders and sales', async () => {
  const standIn = await startStandIn('rusttm');
  const http = createMarketHttp({ clock: systemClock });
  try {
    const adapter = new ConnectorAdapter({
      connector,
      channel: http.channel('rusttm', { limits: connector.info.limits }),
      baseUrl: standIn.url,
      cadenceMs: connector.info.cadenceMs,
      credentials: { PRICING_RUSTTM_API_KEY: 'k-secret' },
      clock: systemClock,
      priorities: () => ['Alien Red'],
    });
    const body = (await adapter.fetchRaw({ game: 'rust', now: Date.now() })) as PollBody;
    assert.deepEqual(body.failures, []);
    assert.equal(standIn.loopback.received.length, 4);
    const parsed = adapter.parse(body);
    const kinds = new Set(parsed.observations.map((o) => (o.kind === 'book' ? o.side : o.kind)));
    assert.deepEqual([...kinds].sort(), ['ask', 'bid', 'sale']);
    assert.ok(parsed.observations.every((o) => o.market === 'rusttm' && o.game === 'rust'));
  } finally {
    await http.close();
    await standIn.close();
  }
});

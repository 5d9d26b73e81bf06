/**
 * One keyed CSFloat poll against the loopback stand-in serving this folder's fixtures: the
 * bulk lists, listings and sales of the priority names, and the buy-order follow-ups of each
 * cheapest listing all answer (no 404), within the connector's per-poll cap.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../domain/clock.ts';
import { createMarketHttp } from '../http/http-client.ts';
import { ConnectorAdapter, type PollBody } from '../live/connector-adapter.ts';
import { startStandIn } from '../testing/stand-in.ts';
import { connector } from './connector.ts';
import { KEY_ENV } from './shared.ts';

test('a keyed poll of two priority names is served end to end', async () => {
  const standIn = await startStandIn('csfloat');
  const http = createMarketHttp({ clock: systemClock });
  const adapter = new ConnectorAdapter({
    connector,
    channel: http.channel('csfloat', { limits: connector.info.limits }),
    baseUrl: standIn.url,
    cadenceMs: connector.info.cadenceMs,
    credentials: { [KEY_ENV]: 'test-key' },
    clock: systemClock,
    priorities: () => [
      '★ Karambit | Doppler Ruby (Factory New)',
      '★ Karambit | Doppler (Factory New)',
      'M4A4 | Poseidon (Factory New)',
    ],
  });
  try {
    const body = (await adapter.fetchRaw({ game: 'cs2', now: Date.now() })) as PollBody;
    assert.deepEqual(body.failures, []);
    const parsed = adapter.parse(body);
    assert.deepEqual(parsed.rejected, []);
    const kinds = parsed.observations.map((o) => (o.kind === 'book' ? `${o.side}` : o.kind));
    for (const kind of ['ask', 'bid', 'listing', 'sale']) assert.ok(kinds.includes(kind), kind);
    const paths = standIn.loopback.received.map((request) => request.url.pathname);
    assert.equal(paths.length, 8);
    assert.ok(paths.includes('/api/v1/listings/900000000000000101/buy-orders'));
    assert.ok(paths.includes('/api/v1/listings/324288155723370311/buy-orders'));
    const auth = standIn.loopback.received.map((request) => request.headers.authorization);
    assert.ok(auth.every((value) => value === 'test-key'));
  } finally {
    await http.close();
    await standIn.close();
  }
});

test('buy orders refused with "Disable your VPN" fail as blocked and say why; asks still arrive', async () => {
  const standIn = await startStandIn('csfloat');
  for (const id of ['900000000000000101', '324288155723370311']) {
    standIn.loopback.route(`GET /api/v1/listings/${id}/buy-orders`, () => ({
      kind: 'json',
      status: 403,
      body: { code: 4, message: 'Disable your VPN' },
    }));
  }
  const http = createMarketHttp({ clock: systemClock });
  const adapter = new ConnectorAdapter({
    connector,
    channel: http.channel('csfloat', { limits: connector.info.limits }),
    baseUrl: standIn.url,
    cadenceMs: connector.info.cadenceMs,
    credentials: { [KEY_ENV]: 'test-key' },
    clock: systemClock,
    priorities: () => ['★ Karambit | Doppler (Factory New)', 'M4A4 | Poseidon (Factory New)'],
  });
  try {
    const body = (await adapter.fetchRaw({ game: 'cs2', now: Date.now() })) as PollBody;
    assert.ok(body.failures.length > 0);
    for (const { request, failure } of body.failures) {
      assert.equal(request.kind, 'buy_orders');
      assert.equal(failure.kind, 'blocked');
      assert.match(failure.message, /refuses buy-order reads from this address.*Disable your VPN/);
    }
    const parsed = adapter.parse(body);
    assert.equal(parsed.partial?.kind, 'blocked');
    const sides = parsed.observations.filter((o) => o.kind === 'book');
    assert.ok(sides.some((o) => o.kind === 'book' && o.side === 'ask'));
    assert.ok(!sides.some((o) => o.kind === 'book' && o.side === 'bid'), 'no empty bid book');
  } finally {
    await http.close();
    await standIn.close();
  }
});

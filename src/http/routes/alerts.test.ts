import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AlertEngine } from '../../access/alerts/alert-engine.ts';
import { AlertService } from '../../access/alerts/alert-service.ts';
import { verifySignature } from '../../access/alerts/signature.ts';
import { createSqliteAlertStore } from '../../access/alerts/sqlite-alert-store.ts';
import { WebhookDeliverer } from '../../access/alerts/webhook-deliverer.ts';
import { WebhookSender } from '../../access/alerts/webhook-sender.ts';
import { manualClock, SECOND } from '../../domain/clock.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { auth, buildHarness, KEYS } from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const HOOK = 'http://127.0.0.1:9/hook';
const closers: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const close of closers) await close();
});

async function harnessWithAlerts(allowPrivate = true) {
  const store = createSqliteAlertStore({ path: ':memory:' });
  await store.init();
  const clock = manualClock('2026-11-01T00:00:00Z');
  const harness = await buildHarness({ clock, docs: false });
  const engine = new AlertEngine({ store, book: harness.book, clock, feeModel: DEFAULT_FEE_MODEL });
  await engine.start();
  harness.deps.alerts = new AlertService({ store, engine, clock, allowPrivate });
  closers.push(() => harness.app.close());
  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: object,
    key: string = KEYS.pro,
  ) =>
    harness.app.inject({
      method,
      url,
      headers: auth(key),
      ...(payload ? { payload } : {}),
    });
  return { ...harness, store, engine, clock, call };
}

const create = (overrides: object = {}) => ({
  marketHashName: REDLINE,
  condition: { type: 'ask_below', value: 1500 },
  url: HOOK,
  ...overrides,
});

describe('alert routes', () => {
  test('create, list, read, deliveries, delete; the secret is shown once', async () => {
    const { call } = await harnessWithAlerts();
    const created = await call('POST', '/v1/alerts', create({ markets: ['csfloat'] }));
    assert.equal(created.statusCode, 201);
    const alert = created.json();
    assert.match(alert.id, /^alt_/);
    assert.match(alert.secret, /^whsec_/);
    assert.equal(alert.canonicalItemId, 'cs2-redline-ft');
    assert.deepEqual(alert.markets, ['csfloat']);
    assert.equal(alert.cooldownSeconds, 60);
    assert.equal(alert.lastFiredAt, null);
    const listed = (await call('GET', '/v1/alerts')).json();
    assert.deepEqual(
      listed.alerts.map((a: { id: string }) => a.id),
      [alert.id],
    );
    assert.equal(listed.alerts[0].secret, undefined);
    const one = await call('GET', `/v1/alerts/${alert.id}`);
    assert.equal(one.json().url, HOOK);
    assert.equal(one.json().secret, undefined);
    const deliveries = await call('GET', `/v1/alerts/${alert.id}/deliveries`);
    assert.deepEqual(deliveries.json(), { alertId: alert.id, deliveries: [] });
    assert.equal(
      (await call('GET', `/v1/alerts/${alert.id}`, undefined, KEYS.enterprise)).statusCode,
      404,
    );
    assert.equal((await call('DELETE', `/v1/alerts/${alert.id}`)).statusCode, 204);
    assert.equal((await call('GET', `/v1/alerts/${alert.id}`)).statusCode, 404);
    assert.equal((await call('DELETE', `/v1/alerts/${alert.id}`)).statusCode, 404);
  });

  test('Developer keys are refused; without an alert store the routes answer 503', async () => {
    const { call } = await harnessWithAlerts();
    const refused = await call('POST', '/v1/alerts', create(), KEYS.developer);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'FEATURE_NOT_AVAILABLE');
    const bare = await buildHarness({ docs: false });
    closers.push(() => bare.app.close());
    const off = await bare.app.inject({ url: '/v1/alerts', headers: auth(KEYS.pro) });
    assert.equal(off.statusCode, 503);
  });

  const bad: [string, object, RegExp][] = [
    ['unknown condition', create({ condition: { type: 'ask_near', value: 1 } }), /condition/],
    ['fractional cents', create({ condition: { type: 'ask_below', value: 12.5 } }), /integer/],
    ['bps over 10000', create({ condition: { type: 'move_bps', value: 20_000 } }), /10000/],
    ['unknown item', create({ marketHashName: 'Nope' }), /not a known item/],
    ['unknown market', create({ markets: ['nowhere'] }), /unknown market/],
    ['ftp url', create({ url: 'ftp://example.com/x' }), /http or https/],
    ['extra field', create({ extra: 1 }), /extra/],
    ['negative cooldown', create({ cooldownSeconds: -1 }), /cooldownSeconds/],
  ];
  for (const [name, body, message] of bad) {
    test(`bad input: ${name} → 400 in the envelope`, async () => {
      const { call } = await harnessWithAlerts();
      const response = await call('POST', '/v1/alerts', body);
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'INVALID_PARAMETER');
      assert.match(JSON.stringify(response.json().message), message);
    });
  }

  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://localhost/hook',
  ]) {
    test(`SSRF: ${url} is refused without --webhooks-allow-private`, async () => {
      const { call } = await harnessWithAlerts(false);
      const response = await call('POST', '/v1/alerts', create({ url }));
      assert.equal(response.statusCode, 400);
      assert.match(JSON.stringify(response.json().message), /non-public/);
    });
  }

  test("past the plan's cap: 403", async () => {
    const { call } = await harnessWithAlerts();
    for (let i = 0; i < 100; i++) {
      assert.equal((await call('POST', '/v1/alerts', create())).statusCode, 201);
    }
    const refused = await call('POST', '/v1/alerts', create());
    assert.equal(refused.statusCode, 403);
    assert.match(refused.json().message, /at most 100 alerts/);
  });
});

describe('an alert end to end', () => {
  test('a book change fires; the signed webhook arrives; the deliveries log shows it', async () => {
    const received: { headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const { call, quote, engine, store, clock } = await harnessWithAlerts();
    const alert = (await call('POST', '/v1/alerts', create({ url }))).json();
    quote('ask', 'cs2-redline-ft', 'csfloat', [1600]);
    quote('ask', 'cs2-redline-ft', 'csfloat', [1450]);
    await engine.settled();
    const sender = new WebhookSender(true);
    closers.push(() => sender.close());
    assert.equal(await new WebhookDeliverer(store, sender, clock).runOnce(), 1);
    const [hook] = received;
    const signature = String(hook?.headers['x-pricing-signature']);
    assert.ok(verifySignature(alert.secret, signature, hook!.body, clock.now() / SECOND));
    const body = JSON.parse(hook!.body);
    assert.equal(hook?.headers['x-pricing-event-id'], body.id);
    assert.equal(body.nbbo.bestAsk.price, 1450);
    const log = (await call('GET', `/v1/alerts/${alert.id}/deliveries`)).json();
    assert.equal(log.deliveries[0].status, 'delivered');
    assert.equal(log.deliveries[0].attempts[0].httpStatus, 200);
    assert.equal(
      (await call('GET', `/v1/alerts/${alert.id}`)).json().lastFiredAt,
      '2026-11-01T00:00:00.000Z',
    );
  });
});

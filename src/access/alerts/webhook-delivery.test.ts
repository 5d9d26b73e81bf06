import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY, manualClock, SECOND } from '../../domain/clock.ts';
import { sampleAlert } from './alert-store-contract.ts';
import type { AlertStore } from './alert-store.ts';
import { verifySignature } from './signature.ts';
import { createSqliteAlertStore } from './sqlite-alert-store.ts';
import { RETRY_WINDOW_MS, WebhookDeliverer } from './webhook-deliverer.ts';
import { WebhookSender } from './webhook-sender.ts';
import { webhookUrlProblem } from './webhook-target.ts';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback receiver answering each request with the next status in `statuses` (last repeats). */
class Receiver {
  readonly received: Received[] = [];
  private readonly server: Server;
  constructor(private readonly answer: (n: number, res: ServerResponse) => void) {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body });
        this.answer(this.received.length, res);
      });
    });
  }
  static statuses(...statuses: number[]): Receiver {
    return new Receiver((n, res) => {
      res.statusCode = statuses[Math.min(n, statuses.length) - 1]!;
      res.end();
    });
  }
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'webhooks-'));
let files = 0;
after(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse('2026-11-01T00:00:00Z');
const BODY = JSON.stringify({ id: 'evt_1', alertId: 'alt_1', type: 'alert.fired' });

async function storeWithFiring(url: string, path = join(dir, `w-${++files}.db`)) {
  const store = createSqliteAlertStore({ path });
  await store.init();
  await store.createAlert({ ...sampleAlert('alt_1'), url });
  const memory = { lastFiredAt: T0, referenceAsk: 1400, armed: false };
  await store.recordFiring('alt_1', null, memory, {
    id: 'evt_1',
    alertId: 'alt_1',
    body: BODY,
    createdAt: T0,
  });
  return { store, path };
}

async function statusOf(store: AlertStore) {
  const [delivery] = await store.listDeliveries('alt_1', 1);
  return delivery!;
}

describe('webhook delivery', () => {
  const sender = new WebhookSender(true);
  after(() => sender.close());

  test('the signature verifies with the documented recipe', async () => {
    const receiver = Receiver.statuses(204);
    const { store } = await storeWithFiring(await receiver.listen());
    const clock = manualClock(T0);
    assert.equal(await new WebhookDeliverer(store, sender, clock).runOnce(), 1);
    const [got] = receiver.received;
    assert.equal(got?.body, BODY);
    assert.equal(got?.headers['x-pricing-event-id'], 'evt_1');
    const header = String(got?.headers['x-pricing-signature']);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
    assert.equal(Number(t), T0 / SECOND);
    const expected = createHmac('sha256', 'whsec_alt_1').update(`${t}.${got?.body}`).digest('hex');
    assert.equal(v1, expected);
    assert.equal(verifySignature('whsec_alt_1', header, got!.body, T0 / SECOND + 10), true);
    assert.equal(verifySignature('whsec_other', header, got!.body, T0 / SECOND), false);
    assert.equal(verifySignature('whsec_alt_1', header, `${got!.body} `, T0 / SECOND), false);
    assert.equal(verifySignature('whsec_alt_1', header, got!.body, T0 / SECOND + 301), false);
    assert.equal((await statusOf(store)).status, 'delivered');
    await store.close();
    await receiver.close();
  });

  test('a 500 is retried after the backoff, and every attempt is logged', async () => {
    const receiver = Receiver.statuses(500, 500, 200);
    const { store } = await storeWithFiring(await receiver.listen());
    const clock = manualClock(T0);
    const deliverer = new WebhookDeliverer(store, sender, clock);
    assert.equal(await deliverer.runOnce(), 1);
    assert.equal(await deliverer.runOnce(), 0);
    assert.equal((await statusOf(store)).nextAttemptAt, T0 + 30 * SECOND);
    clock.advance(30 * SECOND);
    assert.equal(await deliverer.runOnce(), 1);
    assert.equal((await statusOf(store)).nextAttemptAt, T0 + 90 * SECOND);
    clock.advance(59 * SECOND);
    assert.equal(await deliverer.runOnce(), 0);
    clock.advance(SECOND);
    assert.equal(await deliverer.runOnce(), 1);
    const delivery = await statusOf(store);
    assert.equal(delivery.status, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((a) => a.httpStatus),
      [500, 500, 200],
    );
    await store.close();
    await receiver.close();
  });

  test('a receiver that does not answer in time is retried', async () => {
    const receiver = new Receiver(() => undefined);
    const { store } = await storeWithFiring(await receiver.listen());
    const quick = new WebhookSender(true, 200);
    const deliverer = new WebhookDeliverer(store, quick, manualClock(T0));
    await deliverer.runOnce();
    const delivery = await statusOf(store);
    assert.equal(delivery.status, 'pending');
    assert.deepEqual(delivery.attempts, [{ at: T0, httpStatus: null, error: 'timeout' }]);
    await quick.close();
    await store.close();
    await receiver.close();
  });

  test('retries stop 24 hours after the event: the delivery is failed', async () => {
    const receiver = Receiver.statuses(503);
    const { store } = await storeWithFiring(await receiver.listen());
    const clock = manualClock(T0);
    const deliverer = new WebhookDeliverer(store, sender, clock);
    while ((await statusOf(store)).status === 'pending') {
      clock.set(Math.max(clock.now(), (await statusOf(store)).nextAttemptAt));
      await deliverer.runOnce();
      assert.ok(clock.now() <= T0 + RETRY_WINDOW_MS);
    }
    const delivery = await statusOf(store);
    assert.equal(delivery.status, 'failed');
    assert.ok(delivery.attempts.length >= 25 && delivery.attempts.length <= 40);
    assert.ok(delivery.attempts.at(-1)!.at > T0 + DAY - 3_600_000);
    await store.close();
    await receiver.close();
  });

  test('a restart in the middle of retries loses no delivery', async () => {
    const receiver = Receiver.statuses(500, 204);
    const { store, path } = await storeWithFiring(await receiver.listen());
    const clock = manualClock(T0);
    await new WebhookDeliverer(store, sender, clock).runOnce();
    await store.close();
    const reopened = createSqliteAlertStore({ path });
    await reopened.init();
    clock.advance(30 * SECOND);
    assert.equal(await new WebhookDeliverer(reopened, sender, clock).runOnce(), 1);
    const delivery = await statusOf(reopened);
    assert.equal(delivery.status, 'delivered');
    assert.equal(delivery.attempts.length, 2);
    await reopened.close();
    await receiver.close();
  });

  test('a redirect is not followed (here to the metadata address)', async () => {
    const receiver = new Receiver((_, res) => {
      res.statusCode = 302;
      res.setHeader('location', 'http://169.254.169.254/latest/meta-data/');
      res.end();
    });
    const { store } = await storeWithFiring(await receiver.listen());
    await new WebhookDeliverer(store, sender, manualClock(T0)).runOnce();
    const delivery = await statusOf(store);
    assert.equal(receiver.received.length, 1);
    assert.equal(delivery.status, 'pending');
    assert.deepEqual(
      delivery.attempts.map((a) => a.httpStatus),
      [302],
    );
    await store.close();
    await receiver.close();
  });
});

describe('no SSRF', () => {
  const resolve = async (host: string) => {
    const table: Record<string, string[]> = {
      'hooks.example.com': ['93.184.216.34'],
      'internal.example.com': ['93.184.216.34', '10.0.0.7'],
    };
    const found = table[host];
    if (!found) throw new Error('ENOTFOUND');
    return found;
  };
  const refused: [string, RegExp][] = [
    ['http://127.0.0.1:8080/hook', /non-public address \(127\.0\.0\.1\)/],
    ['http://10.20.30.40/hook', /non-public/],
    ['http://169.254.169.254/latest/meta-data/', /non-public/],
    ['http://[::1]/hook', /non-public/],
    ['http://[::ffff:10.0.0.1]/hook', /non-public/],
    ['https://internal.example.com/hook', /non-public address \(10\.0\.0\.7\)/],
    ['https://nowhere.example.com/hook', /does not resolve/],
    ['ftp://hooks.example.com/hook', /http or https/],
    ['file:///etc/passwd', /http or https/],
    ['not a url', /absolute/],
    ['https://user:pw@hooks.example.com/', /credentials/],
  ];
  for (const [url, reason] of refused) {
    test(`refuses ${url}`, async () => {
      assert.match((await webhookUrlProblem(url, false, resolve)) ?? '', reason);
    });
  }

  test('accepts a public host, and private ones when the operator allows them', async () => {
    assert.equal(await webhookUrlProblem('https://hooks.example.com/h', false, resolve), null);
    assert.equal(await webhookUrlProblem('http://127.0.0.1:9/h', true, resolve), null);
    assert.match((await webhookUrlProblem('ftp://x/', true, resolve)) ?? '', /http or https/);
  });

  test('a name resolving to loopback is refused by the system resolver', async () => {
    assert.match((await webhookUrlProblem('http://localhost/hook', false)) ?? '', /non-public/);
  });

  describe('at delivery time', () => {
    let receiver: Receiver;
    let url: string;
    before(async () => {
      receiver = Receiver.statuses(204);
      url = await receiver.listen();
    });
    after(() => receiver.close());

    test('a loopback target is refused without a request being made', async () => {
      const strict = new WebhookSender(false);
      for (const target of [url, url.replace('127.0.0.1', 'localhost')]) {
        const result = await strict.send({
          url: target,
          secret: 's',
          eventId: 'evt_1',
          body: '{}',
          unixSeconds: 1,
        });
        assert.equal(result.httpStatus, null);
        assert.match(result.error ?? '', /refused: .*non-public/);
      }
      assert.equal(receiver.received.length, 0);
      await strict.close();
    });
  });
});

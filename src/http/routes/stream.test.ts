import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MINUTE, SECOND } from '../../domain/clock.ts';
import { STALE_AFTER_MS } from '../../domain/freshness.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { streamHubOf } from '../app.ts';
import { ID_SPAN } from '../stream/hub.ts';
import { openSse, type SseClient } from '../stream/sse-test-client.ts';
import {
  auth,
  buildHarness,
  DEFAULT_KEYS,
  KEYS,
  RUST_ITEMS,
  testAuthenticator,
  testCatalog,
} from '../test-support.ts';

const REDLINE = 'AK-47 | Redline (Field-Tested)';
const ASIIMOV = 'AWP | Asiimov (Field-Tested)';
const open: { close(): Promise<void> }[] = [];
after(async () => {
  for (const app of open) await app.close();
});

async function served(overrides = {}) {
  const harness = await buildHarness({
    streamTickMs: 0,
    docs: false,
    ...overrides,
  });
  const base = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  open.push(harness.app);
  const hub = streamHubOf(harness.app)!;
  const stream = (query: string, key: string = KEYS.pro, headers: Record<string, string> = {}) =>
    openSse(`${base}${query}`, { ...auth(key), ...headers });
  return { ...harness, base, hub, stream };
}

const itemsQuery = (...names: string[]) =>
  `items=${names.map((name) => encodeURIComponent(name)).join(',')}`;

async function closed(client: SseClient, harness: { hub: { openStreams(): number } }, left = 0) {
  client.close();
  await client.ended;
  while (harness.hub.openStreams() > left) await new Promise((resolve) => setImmediate(resolve));
}

describe('opening a stream', () => {
  test('without a key: 401 in the envelope, no stream', async () => {
    const { base } = await served();
    const client = await openSse(`${base}/v1/stream?${itemsQuery(REDLINE)}`);
    await client.ended;
    assert.equal(client.status, 401);
    assert.equal(JSON.parse(client.body).code, 'UNAUTHORIZED');
  });

  test('the snapshot carries the /v1/nbbo body and the /v1/pricing rows; opening counts as one request', async () => {
    const harness = await served();
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500]);
    harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1400]);
    const client = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`);
    assert.equal(client.status, 200);
    assert.match(String(client.headers['content-type']), /^text\/event-stream/);
    assert.equal(client.headers['x-ratelimit-remaining'], '599');
    const [snapshot] = await client.waitFor(1);
    assert.equal(snapshot!.event, 'snapshot');
    assert.equal(snapshot!.id, harness.hub.currentId());
    const nbbo = await harness.app.inject({
      url: `/v1/nbbo?market_hash_name=${encodeURIComponent(REDLINE)}`,
      headers: auth(KEYS.pro),
    });
    const pricing = await harness.app.inject({
      url: `/v1/pricing/${encodeURIComponent(REDLINE)}`,
      headers: auth(KEYS.pro),
    });
    const item = (snapshot!.data as { items: Record<string, unknown>[] }).items[0]!;
    assert.deepEqual(item.nbbo, nbbo.json());
    assert.deepEqual(item.markets, pricing.json().markets);
    assert.deepEqual(item.buyOrders, pricing.json().buyOrders);
    assert.equal(item.canonicalItemId, 'cs2-redline-ft');
    await closed(client, harness);
  });

  test('unknown names are listed in a 400; a comma inside a name travels encoded', async () => {
    const harness = await served();
    const client = await harness.stream(`/v1/stream?${itemsQuery(REDLINE, 'No Such Thing', 'x')}`);
    await client.ended;
    assert.equal(client.status, 400);
    assert.deepEqual(JSON.parse(client.body).message, [
      'items contains unknown names or ids: No Such Thing, x',
    ]);
  });

  test('bad events and resume ids are 400s; /v2 needs a game', async () => {
    const harness = await served();
    for (const [query, headers] of [
      [`/v1/stream?${itemsQuery(REDLINE)}&events=quote,trade`, {}],
      [`/v1/stream?${itemsQuery(REDLINE)}`, { 'last-event-id': 'abc' }],
      [`/v2/stream?${itemsQuery('Tempered AK47')}`, {}],
      [`/v1/stream`, {}],
    ] as const) {
      const client = await harness.stream(query, KEYS.pro, headers);
      await client.ended;
      assert.equal(client.status, 400, query);
    }
    const rust = await harness.stream(`/v2/stream?game=rust&${itemsQuery('Tempered AK47')}`);
    assert.equal(rust.status, 200);
    await closed(rust, harness);
  });

  test('per-plan item limit: Developer 25', async () => {
    const many: CatalogItem[] = Array.from({ length: 26 }, (_, index) => ({
      id: `cs2-item-${index}`,
      game: 'cs2',
      marketHashName: `Item ${index}`,
      slug: `item-${index}`,
      category: 'skin',
    }));
    const harness = await served({
      catalogs: { cs2: testCatalog('cs2', many), rust: testCatalog('rust', RUST_ITEMS) },
    });
    const names = many.map((item) => item.marketHashName);
    const refused = await harness.stream(`/v1/stream?${itemsQuery(...names)}`, KEYS.developer);
    await refused.ended;
    assert.equal(refused.status, 400);
    const fits = await harness.stream(
      `/v1/stream?${itemsQuery(...names.slice(1))}`,
      KEYS.developer,
    );
    assert.equal(fits.status, 200);
    await closed(fits, harness);
  });

  test('concurrent streams per account: Developer 1, then 429 with the quota headers', async () => {
    const harness = await served();
    const first = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, KEYS.developer);
    assert.equal(first.status, 200);
    const second = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, KEYS.developer);
    await second.ended;
    assert.equal(second.status, 429);
    assert.equal(second.headers['retry-after'], '5');
    assert.equal(second.headers['x-ratelimit-limit'], '60');
    await closed(first, harness);
    const again = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, KEYS.developer);
    assert.equal(again.status, 200);
    await closed(again, harness);
  });
});

describe('an account with its own limit of open streams', () => {
  test('a Developer account set to 2 holds two streams, the third is a 429', async () => {
    const own = 'sk_test_two_streams';
    const keys = new Map([
      ...DEFAULT_KEYS,
      [own, { accountId: 'acct-two', plan: 'developer' as const, streams: 2 }],
    ]);
    const harness = await served({ authenticator: testAuthenticator(keys) });
    const first = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, own);
    const second = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, own);
    assert.deepEqual([first.status, second.status], [200, 200]);
    const third = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`, own);
    await third.ended;
    assert.equal(third.status, 429);
    assert.match(JSON.parse(third.body).message, /At most 2 open streams/);
    await closed(first, harness, 1);
    await closed(second, harness);
  });
});

describe('events', () => {
  test('quote, nbbo and stale events, and a ping every 15 s of the injected clock', async () => {
    const harness = await served();
    const at = harness.clock.now();
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500], at);
    const client = await harness.stream(
      `/v1/stream?${itemsQuery(REDLINE)}&events=quote,nbbo,stale`,
    );
    await client.waitFor(1);
    harness.quote('ask', 'cs2-redline-ft', 'skinport', [1400], at);
    const [, quote, nbbo] = await client.waitFor(3);
    assert.equal(quote!.event, 'quote');
    assert.deepEqual(
      { ...(quote!.data as object), quote: undefined },
      {
        marketHashName: REDLINE,
        canonicalItemId: 'cs2-redline-ft',
        market: 'skinport',
        side: 'ask',
        quote: undefined,
      },
    );
    assert.equal((quote!.data as { quote: { price: number } }).quote.price, 1400);
    assert.equal(nbbo!.event, 'nbbo');
    assert.equal((nbbo!.data as { bestAsk: { market: string } }).bestAsk.market, 'skinport');
    assert.ok(nbbo!.id! > quote!.id!);

    harness.clock.advance(PING_MS);
    harness.hub.tick();
    await client.waitForComments(1);
    assert.deepEqual(client.comments, ['ping']);

    harness.clock.set(at + STALE_AFTER_MS + 1);
    harness.hub.tick();
    const events = await client.waitFor(6);
    assert.deepEqual(
      events.slice(3).map((event) => [event.event, (event.data as { market?: string }).market]),
      [
        ['stale', 'csfloat'],
        ['stale', 'skinport'],
        ['nbbo', undefined],
      ],
    );
    await closed(client, harness);
  });

  test('only the asked markets produce events; the default is nbbo only', async () => {
    const harness = await served();
    const only = await harness.stream(
      `/v1/stream?${itemsQuery(REDLINE)}&markets=csfloat&events=quote`,
    );
    const nbboOnly = await harness.stream(`/v1/stream?${itemsQuery(REDLINE)}`);
    await Promise.all([only.waitFor(1), nbboOnly.waitFor(1)]);
    harness.quote('ask', 'cs2-redline-ft', 'skinport', [1400]);
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1300]);
    const [, quote] = await only.waitFor(2);
    assert.equal((quote!.data as { market: string }).market, 'csfloat');
    const [, first, second] = await nbboOnly.waitFor(3);
    assert.deepEqual([first!.event, second!.event], ['nbbo', 'nbbo']);
    await closed(only, harness, 1);
    await closed(nbboOnly, harness);
  });

  test('fan-out under concurrent ingest: every stream sees the same events, ids strictly increasing', async () => {
    const harness = await served();
    const clients = await Promise.all(
      Array.from({ length: 20 }, () =>
        harness.stream(
          `/v1/stream?${itemsQuery(REDLINE, ASIIMOV)}&events=quote,nbbo`,
          KEYS.enterprise,
        ),
      ),
    );
    await Promise.all(clients.map((client) => client.waitFor(1)));
    const markets = ['csfloat', 'skinport', 'buff163'] as const;
    for (let step = 0; step < 60; step += 1) {
      const itemId = step % 2 === 0 ? 'cs2-redline-ft' : 'cs2-asiimov-ft';
      harness.quote(step % 3 === 0 ? 'bid' : 'ask', itemId, markets[step % 3]!, [
        1000 + ((step * 37) % 500),
      ]);
      harness.clock.advance(SECOND);
    }
    const last = harness.hub.currentPosition();
    const seen = await Promise.all(
      clients.map(async (client) => {
        while (Math.floor((client.messages.at(-1)?.id ?? 0) / ID_SPAN) !== last)
          await client.waitFor(client.messages.length + 1);
        return client.messages.slice(1);
      }),
    );
    assert.ok(seen[0]!.length >= 60);
    for (const other of seen) assert.deepEqual(other, seen[0]);
    const ids = seen[0]!.map((event) => event.id!);
    for (let index = 1; index < ids.length; index += 1) assert.ok(ids[index]! > ids[index - 1]!);
    for (const client of clients) client.close();
    await Promise.all(clients.map((client) => client.ended));
  });
});

const PING_MS = 15 * SECOND;

describe('resume', () => {
  async function interrupted(harness: Awaited<ReturnType<typeof served>>) {
    const query = `/v1/stream?${itemsQuery(REDLINE)}&events=quote,nbbo`;
    const first = await harness.stream(query);
    await first.waitFor(1);
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1500]);
    await first.waitFor(3);
    const lastSeen = first.messages.at(-1)!.id!;
    await closed(first, harness);
    harness.quote('ask', 'cs2-redline-ft', 'skinport', [1400]);
    harness.quote('ask', 'cs2-asiimov-ft', 'skinport', [900]);
    harness.quote('bid', 'cs2-redline-ft', 'csfloat', [1300]);
    return { query, lastSeen };
  }

  test('within the buffer: every event after Last-Event-ID exactly once, in order, no snapshot', async () => {
    const harness = await served();
    const { query, lastSeen } = await interrupted(harness);
    const resumed = await harness.stream(query, KEYS.pro, { 'last-event-id': String(lastSeen) });
    const replayed = await resumed.waitFor(4);
    assert.deepEqual(
      replayed.map((event) => [event.event, (event.data as { market?: string }).market]),
      [
        ['quote', 'skinport'],
        ['nbbo', undefined],
        ['quote', 'csfloat'],
        ['nbbo', undefined],
      ],
    );
    assert.ok(replayed.every((event) => event.id! > lastSeen));
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1200]);
    await resumed.waitFor(6);
    assert.equal(new Set(resumed.messages.map((event) => event.id)).size, 6);
    await closed(resumed, harness);
    const byQuery = await harness.stream(`${query}&lastEventId=${lastSeen}`);
    assert.equal((await byQuery.waitFor(1))[0]!.event, 'quote');
    await closed(byQuery, harness);
  });

  test('beyond the buffer: reset, then a fresh snapshot', async () => {
    const harness = await served({ streamReplayMs: 5 * MINUTE });
    const { query, lastSeen } = await interrupted(harness);
    harness.clock.advance(5 * MINUTE + 1);
    harness.hub.tick();
    const resumed = await harness.stream(query, KEYS.pro, { 'last-event-id': String(lastSeen) });
    const [reset, snapshot] = await resumed.waitFor(2);
    assert.equal(reset!.event, 'reset');
    assert.equal(snapshot!.event, 'snapshot');
    await closed(resumed, harness);
  });
});

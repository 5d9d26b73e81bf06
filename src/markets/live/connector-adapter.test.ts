import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, MINUTE } from '../../domain/clock.ts';
import type { Connector, ConnectorRequest } from '../connector.ts';
import { createMarketHttp } from '../http/http-client.ts';
import type { MarketHttp } from '../http/market-http.ts';
import type { AdapterError } from '../market-adapter.ts';
import { startLoopback, type Loopback } from '../testing/loopback.ts';
import { ConnectorAdapter, type PollBody } from './connector-adapter.ts';

const page = (n: number): ConnectorRequest => ({
  kind: 'page',
  game: 'cs2',
  method: 'GET',
  path: '/items',
  query: { page: n },
  meta: { page: n },
});

/** Pages of `{names, more}`; page 3 throws; `{refused: true}` is an auth refusal in the body. */
const connector: Connector = {
  info: {
    id: 'skinport',
    displayName: 'test',
    games: ['cs2'],
    currency: 'USD',
    scale: 100,
    cadenceMs: MINUTE,
    capabilities: { asks: true, bids: false, sales: false, listings: false, floats: false },
    docsUrl: 'https://example.test',
    baseUrl: 'https://example.test',
    limits: [{ requests: 100, windowMs: MINUTE }],
    credentials: [{ env: 'TEST_KEY', required: true, purpose: 'test' }],
    supplies: 'asks',
  },
  maxRequestsPerPoll: 4,
  requests: (ctx) => [{ ...page(1), headers: { 'x-key': ctx.credentials.TEST_KEY! } }],
  parsers: {
    page(body, ctx) {
      const { names, more, refused } = body as {
        names: string[];
        more: boolean;
        refused?: boolean;
      };
      if (refused)
        return {
          observations: [],
          rejected: [],
          failure: { kind: 'auth', detail: 'login required' },
        };
      const n = Number(ctx.request.meta?.page);
      if (n === 3) throw new Error('a parser bug');
      const observations = names.map((item) => ({
        game: ctx.game,
        market: 'skinport' as const,
        item,
        currency: 'USD',
        scale: 100,
        kind: 'sale' as const,
        price: 100,
        quantity: 1,
        soldAt: ctx.now,
      }));
      return {
        observations,
        rejected: [],
        ...(more ? { next: [page(n + 1)] } : {}),
        remember: { last: String(n) },
      };
    },
  },
};

describe('connector adapter over loopback', () => {
  let server: Loopback;
  let http: MarketHttp;
  const clock = manualClock('2026-11-24T12:00:00Z');
  const pages: Record<string, unknown> = {};

  before(async () => {
    server = await startLoopback();
    server.route('GET /items', (request) => {
      const body = pages[request.url.searchParams.get('page') ?? ''];
      return body === undefined ? { kind: 'status', status: 503 } : { kind: 'json', body };
    });
    http = createMarketHttp({
      clock,
      sleep: async () => undefined,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 },
    });
  });
  after(async () => {
    await http.close();
    await server.close();
  });

  const adapter = (credentials: Record<string, string> = { TEST_KEY: 'k' }) =>
    new ConnectorAdapter({
      connector,
      channel: http.channel(`t-${Math.random()}`, { limits: connector.info.limits }),
      baseUrl: server.url,
      cadenceMs: 2 * MINUTE,
      credentials,
      clock,
    });

  test('follows pages, sends credentials, caps the poll, and turns a throwing parser into a rejection', async () => {
    Object.assign(pages, {
      1: { names: ['a'], more: true },
      2: { names: ['b'], more: true },
      3: { names: ['c'], more: true },
      4: { names: ['d'], more: true },
      5: { names: ['e'], more: false },
    });
    const before = server.received.length;
    const live = adapter();
    assert.equal(live.info.cadenceMs, 2 * MINUTE, 'the configured cadence');
    const parsed = live.parse((await live.fetchRaw({ game: 'cs2', now: clock.now() })) as PollBody);
    const sent = server.received.slice(before);
    assert.deepEqual(
      sent.map((r) => r.url.searchParams.get('page')),
      ['1', '2', '3'],
      'page 3 threw: no page 4',
    );
    assert.equal(sent[0]!.headers['x-key'], 'k');
    assert.deepEqual(
      parsed.observations.map((o) => o.item),
      ['a', 'b'],
    );
    assert.deepEqual(
      parsed.rejected.map((r) => r.reason),
      ['malformed'],
    );
    assert.match(parsed.rejected[0]!.detail, /parser threw: Error: a parser bug/);
  });

  test('a poll that loses later pages is partial; one that gets nothing fails with the kind', async () => {
    Object.assign(pages, { 1: { names: ['a'], more: true } });
    delete pages[2];
    const live = adapter();
    const parsed = live.parse(await live.fetchRaw({ game: 'cs2', now: clock.now() }));
    assert.deepEqual(
      parsed.observations.map((o) => o.item),
      ['a'],
    );
    assert.equal(parsed.partial?.kind, 'http_5xx');
    assert.match(
      parsed.partial!.detail,
      /1 of 2 requests failed; first: skinport GET \/items: HTTP 503/,
    );
    delete pages[1];
    await assert.rejects(
      live.fetchRaw({ game: 'cs2', now: clock.now() }),
      (error: AdapterError) => error.kind === 'http_5xx' && error.retryable,
    );
  });

  test('a refusal inside a 200 body is an auth failure and ends the poll', async () => {
    Object.assign(pages, { 1: { refused: true } });
    await assert.rejects(
      adapter().fetchRaw({ game: 'cs2', now: clock.now() }),
      (error: AdapterError) => error.kind === 'auth' && /login required/.test(error.message),
    );
  });

  test('a required credential that is not set fails the poll without a request', async () => {
    const before = server.received.length;
    await assert.rejects(
      adapter({}).fetchRaw({ game: 'cs2', now: clock.now() }),
      (error: AdapterError) =>
        error.kind === 'auth' && !error.retryable && /TEST_KEY not set/.test(error.message),
    );
    assert.equal(server.received.length, before);
  });
});

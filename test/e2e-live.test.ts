/**
 * End to end over real HTTP: loopback stand-ins of every live market and of the ECB rate
 * source serve the connectors' fixture bodies at the real paths; `pricing serve --source live
 * --markets <file>` ingests from all of them, and the converted quotes are read back through
 * the API. Then several stand-ins misbehave (429 with Retry-After, 500, a hang past the
 * timeout, truncated JSON, an HTML page) while the clock moves 31 minutes: the service keeps serving,
 * the affected quotes keep their last good prices and turn stale, and health and latency say why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINUTE } from '../src/domain/clock.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { LIVE_CONNECTORS } from '../src/markets/connectors.ts';
import { servedFixtures } from '../src/markets/testing/fixtures.ts';
import { startStandInSet, type StandInSet } from '../src/markets/testing/stand-in-set.ts';
import {
  CATALOG_CUT,
  childEnv,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

const NO_ANSWER = ['network', 'circuit_open', 'budget'];

const REDLINE = '/v1/pricing/AK-47%20%7C%20Redline%20(Field-Tested)';
const CREDENTIALS = {
  PRICING_DMARKET_PUBLIC_KEY: 'e2e-public',
  PRICING_DMARKET_SECRET_KEY: 'e2e-secret',
  PRICING_BUFF163_SESSION: 'e2e-session',
  PRICING_RUSTSKINS_API_KEY: 'e2e-rustskins',
};

/** Server time: after every time the fixtures carry, so none of it is in the future. */
function clockOffsetMs(): number {
  const latest = Math.max(
    ...LIVE_CONNECTORS.flatMap((c) => servedFixtures(c.info.id).map((f) => Date.parse(f.now))),
  );
  return latest + 10 * MINUTE - Date.now();
}

interface HealthRow {
  id: MarketId;
  status: string;
  lastEventAt: string | null;
  lastError: { kind: string; detail: string | null } | null;
  note: string | null;
}

/**
 * Polls until `probe` answers. The limit only guards against a hang: the ingest worker starts
 * after the server listens, and at load average 50 it started two minutes later.
 */
async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 300_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error('condition not met in time');
    // Health is limited to 60 requests a minute per client IP: probe about once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  }
}

// The two servers are independent and mostly wait for their polls: they run at once.
describe('end to end: --source live', { concurrency: true }, () => {
  // Its tests follow one another on one server (a suite's concurrency is inherited).
  describe('live connectors against loopback stand-ins', { concurrency: 1 }, () => {
    const dir = tempDataDir();
    const offsetFile = join(dir, 'clock-offset');
    const marketsFile = join(dir, 'markets.json');
    let offset = clockOffsetMs();
    let set: StandInSet;
    let server: RunningServer;
    let key: string;

    const get = async (path: string) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        headers: { Authorization: `ApiKey ${key}` },
      });
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
      return response.json();
    };
    const health = async (game: 'cs2' | 'rust'): Promise<HealthRow[]> => {
      const response = await fetch(`${server.baseUrl}/v2/markets/health?game=${game}`);
      assert.equal(response.status, 200, await response.clone().text());
      return response.json();
    };
    const quoteOf = async (market: string) =>
      (await get(REDLINE)).markets.find((quote: { market: string }) => quote.market === market);

    before(async () => {
      set = await startStandInSet();
      set.writeMarketsFile(marketsFile, 10);
      const file = JSON.parse(readFileSync(marketsFile, 'utf8'));
      file.markets.marketcsgo.timeoutSeconds = 2;
      writeFileSync(marketsFile, JSON.stringify(file));
      writeFileSync(offsetFile, String(offset));
      server = await startServer(
        ['--source', 'live', '--markets', marketsFile, ...CATALOG_CUT, '--data', dir],
        {
          env: childEnv({ ...CREDENTIALS, PRICING_CLOCK_OFFSET_FILE: offsetFile }),
        },
      );
      key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await set?.close();
    });

    test('every connector delivers, for every game it lists, and health says live', async () => {
      for (const game of ['cs2', 'rust'] as const) {
        const markets = LIVE_CONNECTORS.filter((c) => c.info.games.includes(game)).map(
          (c) => c.info.id,
        );
        const rows = await eventually(async () => {
          const current = await health(game);
          const live = current.filter(
            (row) => markets.includes(row.id) && row.lastEventAt !== null,
          );
          return live.length === markets.length ? current : null;
        });
        for (const market of markets) {
          assert.equal(rows.find((row) => row.id === market)?.status, 'live', `${game} ${market}`);
        }
        const simulatedOnly = rows.filter((row) => !markets.includes(row.id));
        for (const row of simulatedOnly) assert.match(row.note ?? '', /no live connector/);
      }
    });

    test('quotes come back converted to USD cents with the day’s ECB rate', async () => {
      const quotes = await eventually(async () => {
        const snapshot = await get(REDLINE);
        const markets = new Set(snapshot.markets.map((quote: { market: string }) => quote.market));
        return ['skinport', 'csfloat', 'buff163', 'marketcsgo'].every((m) => markets.has(m))
          ? snapshot
          : null;
      });
      const price = (market: string) =>
        quotes.markets.find((quote: { market: string }) => quote.market === market).price;
      assert.equal(price('skinport'), 1377, '11.90 EUR × 1.1571 USD/EUR, half up');
      assert.equal(price('csfloat'), 1189, 'cents as published');
      assert.equal(price('buff163'), 1089, '77.50 CNY × 1.1571 / 8.2313, half up');
      for (const quote of quotes.markets) assert.equal(quote.isStale, false);
      const analytics = await eventually(async () => {
        const body = await get('/v1/market-analytics/AK-47%20%7C%20Redline%20(Field-Tested)');
        const skinport = body.markets.find((row: { market: string }) => row.market === 'skinport');
        return skinport.sales_stats ? skinport.sales_stats : null;
      });
      assert.equal(analytics['24h'].volume, 38, "Skinport's own 24-hour sales count");
      assert.equal(analytics['24h'].median_price, 1446, '12.50 EUR median, converted');
    });

    test('misbehaving upstreams: last good prices stay, turn stale, and health says why', async () => {
      const before = new Map<string, number>();
      const broken = {
        skinport: /HTTP 429|Retry-After/,
        csfloat: /HTTP 500/,
        marketcsgo: /timed out/,
        waxpeer: /invalid or truncated JSON/,
        buff163: /an HTML page instead of JSON/,
      };
      for (const market of Object.keys(broken)) before.set(market, (await quoteOf(market)).price);
      set.markets.get('skinport')!.behave({ kind: 'rate_limited', retryAfterSeconds: 3600 });
      set.markets.get('csfloat')!.behave({ kind: 'http_5xx' });
      set.markets.get('marketcsgo')!.behave({ kind: 'hang' });
      set.markets.get('waxpeer')!.behave({ kind: 'truncate' });
      set.markets.get('buff163')!.behave({ kind: 'html' });
      set.ecbReply({ kind: 'status', status: 503 });
      // 31 minutes on at once: the failing polls and dmarket's next good one are one wait.
      offset += 31 * MINUTE;
      writeFileSync(offsetFile, String(offset));
      const advanced = Date.now() + offset;

      let seen = '';
      const rows = await eventually(async () => {
        const current = await health('cs2');
        seen = JSON.stringify(current.map((row) => [row.id, row.lastError]));
        const failing = Object.entries(broken).every(([market, cause]) =>
          cause.test(current.find((row) => row.id === market)?.lastError?.detail ?? ''),
        );
        return failing ? current : null;
      }).catch((error: Error) => assert.fail(`${error.message}; health: ${seen}`));
      assert.equal(rows.find((row) => row.id === 'skinport')!.lastError!.kind, 'rate_limited');

      await eventually(async () => {
        const freshness = await get('/v1/status/freshness');
        return Date.parse(freshness.checked_at) >= advanced ? freshness : null;
      });
      const snapshot = await eventually(async () => {
        const current = await get(REDLINE);
        const dmarket = current.markets.find(
          (quote: { market: string }) => quote.market === 'dmarket',
        );
        return dmarket && !dmarket.isStale ? current : null;
      });
      for (const market of Object.keys(broken)) {
        const quote = snapshot.markets.find((entry: { market: string }) => entry.market === market);
        assert.equal(
          quote.price,
          before.get(market),
          `${market}: the last good price, not garbage`,
        );
        assert.equal(
          quote.isStale,
          true,
          `${market}: flagged stale after 31 minutes: ${JSON.stringify(quote)}`,
        );
      }
      const latency = await get('/v1/status/market-latency');
      const csfloat = latency.markets.find((row: { market: string }) => row.market === 'csfloat');
      assert.ok(csfloat.error_rates_by_kind.http_5xx > 0);
      assert.ok(csfloat.error_rate > 0);
      const healthAfter = await health('cs2');
      assert.equal(healthAfter.find((row) => row.id === 'dmarket')!.status, 'live');
      assert.notEqual(healthAfter.find((row) => row.id === 'skinport')!.status, 'live');
    });
  });

  describe('with no network', () => {
    const dir = tempDataDir();
    let server: RunningServer;

    before(async () => {
      const closed = await startStandInSet([]);
      const deadUrl = closed.ecb.url;
      await closed.close();
      const markets = Object.fromEntries(
        LIVE_CONNECTORS.map(({ info }) => [info.id, { baseUrl: deadUrl, pollSeconds: 10 }]),
      );
      const file = join(dir, 'markets.json');
      writeFileSync(file, JSON.stringify({ markets, fx: { url: `${deadUrl}/rates.xml` } }));
      server = await startServer([
        '--source',
        'live',
        '--markets',
        file,
        ...CATALOG_CUT,
        '--data',
        dir,
      ]);
    });
    after(async () => {
      await server?.stop('SIGKILL');
    });

    test('the service starts, serves, and health shows each market down with its reason', async () => {
      const rows = await eventually(async () => {
        const response = await fetch(`${server.baseUrl}/v1/markets/health`);
        const current: HealthRow[] = await response.json();
        const polled = current.filter((row) => row.note === null);
        return polled.length > 0 && polled.every((row) => row.lastError !== null) ? current : null;
      });
      for (const row of rows) {
        assert.equal(row.status, 'stale', row.id);
        if (row.note !== null)
          assert.match(row.note, /needs PRICING_[\w ]+ \(not set\)|no live connector/);
        // Refused, or no request sent: its breaker open or its request budget (Steam's) spent.
        else
          assert.ok(NO_ANSWER.includes(row.lastError!.kind), `${row.id}: ${row.lastError!.kind}`);
      }
      assert.ok(rows.some((row) => /needs PRICING_BUFF163_SESSION/.test(row.note ?? '')));
      const key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
      const latency = await (
        await fetch(`${server.baseUrl}/v1/status/market-latency`, {
          headers: { Authorization: `ApiKey ${key}` },
        })
      ).json();
      const polled = rows.filter((entry) => entry.note === null).map((entry) => entry.id);
      const measured = latency.markets.filter((entry: { market: MarketId }) =>
        polled.includes(entry.market),
      );
      for (const row of measured)
        assert.equal(row.error_rate, 1, `${row.market}: every fetch failed`);
      for (const row of measured) {
        assert.ok(row.error_rates_by_kind.network > 0, `${row.market}: connections refused`);
        assert.equal(
          row.error_rates_by_kind.budget,
          undefined,
          'refused connections spend no budget',
        );
      }
    });
  });
});

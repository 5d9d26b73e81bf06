/**
 * The metrics endpoint end to end, through the real `pricing serve` and real HTTP: role `all`
 * ingesting a Skinport stand-in that serves a body with garbage rows (counted per reason), key
 * reads and a quota refusal (counted per route and plan), quote age moving with the clock, and
 * the endpoint refusing scrapers without the token and absent from the API port. Then, with
 * PostgreSQL and Redis, role `ingest` exposes its ingest metrics and role `api` its request and
 * book metrics, each on its own listener.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MINUTE, SECOND } from '../src/domain/clock.ts';
import { deleteKeys } from '../src/events/redis-test-support.ts';
import { jitterMs } from '../src/ingest/schedule.ts';
import { responseFixtures } from '../src/markets/testing/fixtures.ts';
import { startStandInSet, type StandInSet } from '../src/markets/testing/stand-in-set.ts';
import { parseSamples, total, type Sample } from '../src/metrics/test-support.ts';
import { adminQuery, dropSchema } from '../src/store/postgres/test-support.ts';
import {
  CATALOG_CUT,
  childEnv,
  runInProcess,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

const TOKEN = 'e2e-metrics-token-0123456789';
const SKINPORT_CS2 = { market: 'skinport', game: 'cs2' };

function metricsUrl(server: RunningServer): string {
  const url = /metrics on (http:\/\/\S+)/.exec(server.output())?.[1];
  assert.ok(url, `the serve output names the metrics URL:\n${server.output()}`);
  return url;
}

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200, await response.clone().text());
  return parseSamples(await response.text());
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
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The Skinport fixture with garbage rows: 2 observations kept of 6 rows. */
function garbageItemsBody(): unknown {
  const fixture = responseFixtures('skinport').find((f) => f.file.endsWith('items-garbage.json'));
  return fixture!.response.body;
}

/**
 * One poll in the test, soon after the start: skinport's start jitter (src/ingest/schedule.ts) at
 * this cadence is 0.26 s (5.3 s at 300 s).
 */
const POLL_SECONDS = 250;

// The two suites' servers are independent and mostly wait for polls: they run at once, each
// suite's tests in order on its own servers (a suite's concurrency is inherited).
describe('metrics end to end', { concurrency: true }, () => {
  describe('role all: ingest, requests, quotas, quote age, protection', { concurrency: 1 }, () => {
    const dir = tempDataDir();
    const offsetFile = join(dir, 'clock-offset');
    const marketsFile = join(dir, 'markets.json');
    const offset = Date.parse('2026-11-24T12:10:00Z') - Date.now();
    let set: StandInSet;
    let server: RunningServer;
    let url: string;
    let demoKey: string;
    let tightKey: string;

    before(async () => {
      set = await startStandInSet(['skinport']);
      set.markets.get('skinport')!.override('skinport/fixtures/items.json', garbageItemsBody());
      assert.ok(jitterMs('skinport', 'cs2', POLL_SECONDS * SECOND) < SECOND);
      set.writeMarketsFile(marketsFile, POLL_SECONDS);
      writeFileSync(offsetFile, String(offset));
      const env = childEnv({ PRICING_CLOCK_OFFSET_FILE: offsetFile, PRICING_METRICS_TOKEN: TOKEN });
      const account = ['--plan', 'developer', '--per-minute', '2', '--data', dir];
      assert.equal((await runInProcess(['accounts', 'create', 'tight', ...account], env)).code, 0);
      const created = await runInProcess(
        ['keys', 'create', '--account', 'tight', '--data', dir],
        env,
      );
      tightKey = created.stdout.trim().split('\n').at(-1)!;
      server = await startServer(
        ['--source', 'live', '--markets', marketsFile, '--data', dir, '--metrics-port', '0'],
        { env },
      );
      url = metricsUrl(server);
      demoKey = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await set?.close();
    });

    test('the endpoint needs the token and is not on the API port', async () => {
      assert.notEqual(new URL(url).port, new URL(server.baseUrl).port);
      const anonymous = await fetch(url);
      assert.equal(anonymous.status, 401);
      assert.ok(anonymous.headers.get('x-request-id'));
      assert.equal(((await anonymous.json()) as { code: string }).code, 'UNAUTHORIZED');
      const variants: Record<string, string>[] = [{}, { Authorization: `Bearer ${TOKEN}` }];
      for (const headers of variants) {
        const onApi = await fetch(`${server.baseUrl}/metrics`, { headers });
        assert.equal(onApi.status, 404);
        assert.doesNotMatch(await onApi.text(), /pricing_/);
      }
    });

    test('key reads are timed per route pattern; a quota refusal is counted per plan', async () => {
      const read = (key: string) =>
        fetch(`${server.baseUrl}/v1/items?perPage=2&page=1`, {
          headers: { Authorization: `ApiKey ${key}` },
        }).then((response) => response.status);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push(await read(demoKey));
      while (!statuses.includes(429) && statuses.length < 20) statuses.push(await read(tightKey));
      const refused = statuses.filter((status) => status === 429).length;
      assert.equal(refused, 1, `statuses: ${statuses}`);

      const samples = await scrape(url);
      const count = (statusClass: string) =>
        total(samples, 'pricing_http_request_duration_seconds_count', {
          route: '/v1/items',
          method: 'GET',
          status_class: statusClass,
        });
      assert.equal(count('2xx'), statuses.length - 1);
      assert.equal(count('4xx'), 1);
      const refusals = { plan: 'developer', window: 'minute', role: 'all' };
      assert.equal(total(samples, 'pricing_quota_refusals_total', refusals), 1);
      assert.ok(total(samples, 'process_cpu_seconds_total')! > 0, "Node's process metrics");
    });

    test('ingest: observations and rejections per market and reason, per poll', async () => {
      const samples = await eventually(async () => {
        const current = await scrape(url);
        const polls = total(current, 'pricing_fetches_total', { ...SKINPORT_CS2, result: 'ok' });
        const howl = total(current, 'pricing_ingest_rejections_total', {
          ...SKINPORT_CS2,
          reason: 'negative_price',
        });
        return polls !== null && polls >= 1 && howl === polls ? current : null;
      });
      const polls = total(samples, 'pricing_fetches_total', { ...SKINPORT_CS2, result: 'ok' })!;
      const rejections = (reason: string) =>
        total(samples, 'pricing_ingest_rejections_total', { ...SKINPORT_CS2, reason });
      assert.equal(rejections('wrong_unit'), polls, 'a RUB price where EUR is declared');
      assert.equal(rejections('unknown_item'), polls, 'a sticker not in the catalog');
      assert.equal(rejections('malformed'), 3 * polls, 'two item rows and one sales row');
      const observations = total(samples, 'pricing_ingest_observations_total', SKINPORT_CS2);
      assert.equal(observations, 10 * polls, '2 asks and 8 sales statistics per poll');
      assert.equal(total(samples, 'pricing_fetch_duration_seconds_count', SKINPORT_CS2), polls);
      assert.equal(total(samples, 'pricing_fetch_failures_total', SKINPORT_CS2), null);
    });

    test('quote age per market from the book, moving with the clock', async () => {
      const fresh = await eventually(async () => {
        const current = await scrape(url);
        return total(current, 'pricing_quotes', SKINPORT_CS2) === 1 ? current : null;
      });
      assert.equal(total(fresh, 'pricing_quotes_stale_ratio', SKINPORT_CS2), 0);
      assert.ok(total(fresh, 'pricing_quote_newest_age_seconds', SKINPORT_CS2)! < 300);

      // No poll may refresh the quote while it ages: one landing between the clock's move and
      // the scrape that sees it would make it young again for another cadence (250 s).
      set.markets.get('skinport')!.behave({ kind: 'http_5xx' });
      writeFileSync(offsetFile, String(offset + 31 * MINUTE));
      const aged = await eventually(async () => {
        const current = await scrape(url);
        const age = total(current, 'pricing_quote_newest_age_seconds', SKINPORT_CS2) ?? 0;
        return age >= 31 * 60 ? current : null;
      });
      assert.equal(total(aged, 'pricing_quotes_stale', SKINPORT_CS2), 1);
      assert.equal(total(aged, 'pricing_quotes_stale_ratio', SKINPORT_CS2), 1);
    });
  });

  const DATABASE_URL = process.env.DATABASE_URL ?? '';
  const REDIS_URL = process.env.REDIS_URL ?? '';
  const needsBoth = DATABASE_URL && REDIS_URL ? {} : { skip: 'DATABASE_URL and REDIS_URL not set' };

  describe('roles ingest and api: each its own share', { ...needsBoth, concurrency: 1 }, () => {
    const run = randomBytes(5).toString('hex');
    const schema = `metrics_${run}`;
    const prefix = `test:metrics:${run}:`;
    let ingest: RunningServer;
    let api: RunningServer;

    before(async () => {
      await adminQuery(`CREATE SCHEMA ${schema}`);
      const env = childEnv({
        DATABASE_URL,
        REDIS_URL,
        PRICING_PG_SCHEMA: schema,
        PRICING_REDIS_PREFIX: prefix,
        PRICING_METRICS_TOKEN: TOKEN,
      });
      const ingestArgs = [
        '--role',
        'ingest',
        '--sim-items',
        '100',
        '--backfill-days',
        '0',
        ...CATALOG_CUT,
      ];
      ingest = await startServer([...ingestArgs, '--data', tempDataDir(), '--metrics-port', '0'], {
        env,
        ready: /ingest running as/,
      });
      const apiArgs = [
        '--role',
        'api',
        ...CATALOG_CUT,
        '--data',
        tempDataDir(),
        '--metrics-port',
        '0',
      ];
      api = await startServer(apiArgs, { env });
    });
    after(async () => {
      await api?.stop('SIGKILL');
      await ingest?.stop('SIGKILL');
      await dropSchema(schema);
      const redis = new Redis(REDIS_URL);
      await deleteKeys(redis, prefix);
      redis.disconnect();
    });

    test('an ingest process: fetches and observations; no HTTP or book series', async () => {
      const url = metricsUrl(ingest);
      assert.equal((await fetch(url)).status, 401);
      const samples = await eventually(async () => {
        const current = await scrape(url);
        return (total(current, 'pricing_ingest_observations_total') ?? 0) > 0 ? current : null;
      });
      assert.ok(total(samples, 'pricing_fetches_total', { role: 'ingest' })! > 0);
      assert.equal(total(samples, 'pricing_http_request_duration_seconds_count'), null);
      assert.equal(total(samples, 'pricing_quota_refusals_total'), null);
      assert.equal(total(samples, 'pricing_quotes'), null);
    });

    test('an API process: requests and the quote age of its book; no ingest series', async () => {
      const url = metricsUrl(api);
      assert.equal((await fetch(`${api.baseUrl}/v1/markets/health`)).status, 200);
      const samples = await eventually(async () => {
        const current = await scrape(url);
        return (total(current, 'pricing_quotes', { role: 'api' }) ?? 0) > 0 ? current : null;
      });
      const health = { route: '/v1/markets/health', status_class: '2xx' };
      assert.equal(total(samples, 'pricing_http_request_duration_seconds_count', health), 1);
      assert.equal(total(samples, 'pricing_fetches_total'), null);
      assert.equal(total(samples, 'pricing_ingest_observations_total'), null);
    });
  });
});

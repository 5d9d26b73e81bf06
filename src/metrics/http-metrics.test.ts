import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { auth, buildHarness, KEYS } from '../http/test-support.ts';
import { MINUTE } from '../domain/clock.ts';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics.ts';
import { helpLines, matching, parseSamples, total } from './test-support.ts';

const REDLINE = `/v1/pricing/${encodeURIComponent('AK-47 | Redline (Field-Tested)')}`;
const PRICING_ROUTE = '/v1/pricing/:marketHashName';
const DURATION = 'pricing_http_request_duration_seconds';

async function harness() {
  const registry = new Registry();
  const metrics = new HttpMetrics(registry);
  const built = await buildHarness({ metrics });
  built.quote('ask', 'cs2-redline-ft', 'skinport', [1550]);
  const scrape = async () => parseSamples(await registry.metrics());
  return { ...built, registry, scrape };
}

describe('HTTP metrics: latency per route pattern, quota refusals per plan', () => {
  test('requests are counted under their route pattern, method and status class', async () => {
    const { app, scrape } = await harness();
    for (let i = 0; i < 3; i += 1) {
      const response = await app.inject({ url: REDLINE, headers: auth(KEYS.enterprise) });
      assert.equal(response.statusCode, 200);
    }
    const head = await app.inject({ method: 'HEAD', url: REDLINE, headers: auth(KEYS.enterprise) });
    assert.equal(head.statusCode, 200);
    const missing = await app.inject({ url: '/v1/pricing/nope', headers: auth(KEYS.enterprise) });
    assert.equal(missing.statusCode, 404);
    assert.equal((await app.inject({ url: REDLINE })).statusCode, 401);
    assert.equal((await app.inject({ url: '/v1/no-such-route' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'DELETE', url: REDLINE })).statusCode, 405);

    const samples = await scrape();
    const count = (labels: Record<string, string>) => total(samples, `${DURATION}_count`, labels);
    assert.equal(count({ route: PRICING_ROUTE, method: 'GET', status_class: '2xx' }), 3);
    assert.equal(count({ route: PRICING_ROUTE, method: 'HEAD', status_class: '2xx' }), 1);
    assert.equal(count({ route: PRICING_ROUTE, method: 'GET', status_class: '4xx' }), 2);
    assert.equal(count({ route: UNMATCHED_ROUTE, method: 'GET', status_class: '4xx' }), 1);
    assert.equal(count({ route: UNMATCHED_ROUTE, method: 'DELETE', status_class: '4xx' }), 1);
    assert.equal(count({}), 8, 'every response is timed exactly once');

    const labels = { route: PRICING_ROUTE, method: 'GET', status_class: '2xx' };
    const inf = total(samples, `${DURATION}_bucket`, { ...labels, le: '+Inf' });
    assert.equal(inf, 3, 'the +Inf bucket holds every observation');
    assert.ok(total(samples, `${DURATION}_sum`, labels)! > 0);
    const routes = new Set(matching(samples, `${DURATION}_count`).map((s) => s.labels.route));
    assert.deepEqual([...routes].sort(), [PRICING_ROUTE, UNMATCHED_ROUTE].sort());
  });

  test('quota refusals are counted per plan and window, never per key or account', async () => {
    const { app, clock, registry, scrape } = await harness();
    const statuses: number[] = [];
    const call = async () =>
      statuses.push((await app.inject({ url: REDLINE, headers: auth(KEYS.poolA) })).statusCode);
    for (let i = 0; i < 4; i += 1) await call();
    clock.advance(MINUTE);
    for (let i = 0; i < 3; i += 1) await call();
    assert.deepEqual(statuses, [200, 200, 200, 429, 200, 200, 429]);

    const samples = await scrape();
    const refusals = (labels: Record<string, string>) =>
      total(samples, 'pricing_quota_refusals_total', labels);
    assert.equal(refusals({ plan: 'developer', window: 'minute' }), 1);
    assert.equal(refusals({ plan: 'developer', window: 'month' }), 1);
    assert.equal(refusals({ plan: 'enterprise', window: 'minute' }), 0, 'every series exists');
    const text = await registry.metrics();
    for (const secret of ['acct-pool', KEYS.poolA, 'Redline']) {
      assert.ok(!text.includes(secret), `${secret} never appears in the metrics`);
    }
  });

  test('per-IP health refusals are counted; every metric has a HELP line', async () => {
    const { app, registry } = await harness();
    for (let i = 0; i < 61; i += 1) await app.inject({ url: '/v1/markets/health' });
    const text = await registry.metrics();
    assert.equal(total(parseSamples(text), 'pricing_health_rate_limit_refusals_total'), 1);
    const help = helpLines(text);
    for (const name of [DURATION, 'pricing_quota_refusals_total']) {
      assert.ok((help.get(name) ?? '').length > 20, `${name} has a HELP line`);
    }
  });

  test('without metrics nothing is hooked in', async () => {
    const { app } = await buildHarness();
    assert.equal((await app.inject({ url: '/v1/no-such-route' })).statusCode, 404);
  });
});

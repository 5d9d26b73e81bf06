import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Registry } from 'prom-client';
import type { RunningServer } from './server.ts';
import { METRICS_TOKEN_MESSAGE, startOperatorServer } from './operator-server.ts';
import { parseSamples, total } from '../metrics/test-support.ts';

const TOKEN = 'operator-token-0123456789';

function registryWithOneCounter(): Registry {
  const registry = new Registry();
  new Counter({ name: 'test_things_total', help: 'Things.', registers: [registry] }).inc(3);
  return registry;
}

async function start(token: string | null): Promise<RunningServer> {
  return startOperatorServer({
    registry: registryWithOneCounter(),
    port: 0,
    host: '127.0.0.1',
    token,
  });
}

async function assertEnvelope(response: Response, status: number, code: string) {
  assert.equal(response.status, status);
  assert.match(response.headers.get('x-request-id') ?? '', /^req_/);
  const body = (await response.json()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  assert.equal(body.code, code);
  return body;
}

describe('the operator metrics listener', () => {
  const servers: RunningServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
  });

  test('with a token: 401 without it or with a wrong one, the metrics with it', async () => {
    const server = await start(TOKEN);
    servers.push(server);
    const url = `${server.url}/metrics`;

    const missing = await fetch(url);
    const body = await assertEnvelope(missing, 401, 'UNAUTHORIZED');
    assert.equal(body.message, METRICS_TOKEN_MESSAGE);
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer/);
    const wrong = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    await assertEnvelope(wrong, 401, 'UNAUTHORIZED');
    const apiKeyScheme = await fetch(url, { headers: { Authorization: `ApiKey ${TOKEN}` } });
    await assertEnvelope(apiKeyScheme, 401, 'UNAUTHORIZED');
    const elsewhere = await fetch(`${server.url}/anything`);
    await assertEnvelope(elsewhere, 401, 'UNAUTHORIZED');

    const ok = await fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(ok.headers.get('x-request-id') ?? '', /^req_/);
    assert.equal(total(parseSamples(await ok.text()), 'test_things_total'), 3);

    const unknown = await fetch(`${server.url}/other`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    await assertEnvelope(unknown, 404, 'NOT_FOUND');
  });

  test('without a token (a loopback address): open to local scrapers', async () => {
    const server = await start(null);
    servers.push(server);
    const response = await fetch(`${server.url}/metrics`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /^# HELP test_things_total Things\./m);
  });
});

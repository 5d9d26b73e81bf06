import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startServer } from './server.ts';
import { buildHarness } from './test-support.ts';

function get(url: string): Promise<{ status: number; requestId: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          requestId: response.headers['x-request-id'] as string,
        }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('startServer', () => {
  test('listens with the configured timeouts, serves, and closes', async () => {
    const { app } = await buildHarness();
    const server = await startServer(app, { port: 0, host: '127.0.0.1', keepAliveTimeoutMs: 5000 });
    assert.equal(app.server.keepAliveTimeout, 5000);
    assert.equal(app.server.requestTimeout, 30_000);
    const response = await get(`${server.url}/v1/markets/health`);
    assert.equal(response.status, 200);
    assert.match(response.requestId ?? '', /^req_/);
    await server.close();
    await server.close();
    assert.equal(app.server.listening, false);
  });
});

/**
 * Hostile paths under the keyless documentation routes (/docs, its static files, /openapi.json):
 * malformed percent-encoding, NUL bytes and traversal answer 400 or 404 in the error envelope
 * with X-Request-ID, never 500, and log nothing at warn level or above.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import pino from 'pino';
import { buildHarness } from '../test-support.ts';

const PREFIXES = [
  '/docs/static/',
  '/docs/',
  '/docs/static/theme/',
  '/openapi.json/',
  '/docs//static/',
];

const HOSTILE_TAILS = [
  '%00',
  '%00.js',
  'swagger-ui.css%00.x',
  '%2e%2e/%2e%2e/package.json',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '..%2f..%2fpackage.json',
  '%2e%2e%5c%2e%2e%5cpackage.json',
  '..%5c..%5cpackage.json',
  '.%2e/.%2e/etc/passwd',
  '../../../../etc/passwd',
  '%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  '%252e%252e/%252e%252e/package.json',
  '%',
  '%zz',
  '%e0%a4%a',
  '%ff',
  '%u002e%u002e/x',
  '%2f%2f',
  '%5c',
  '.%00.',
  'index.html%00',
  '%0d%0aSet-Cookie:%20x=1',
  'a'.repeat(300),
];

function logSink() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

describe('documentation routes under hostile paths', () => {
  test('%00 and %2e%2e under /docs/static answer 400 or 404 in the envelope', async () => {
    const { app } = await buildHarness();
    const nul = await app.inject({ url: '/docs/static/%00' });
    assert.equal(nul.statusCode, 400);
    assert.deepEqual(nul.json(), {
      statusCode: 400,
      message: ['Malformed URL'],
      error: 'Bad Request',
      code: 'INVALID_PARAMETER',
    });
    const traversal = await app.inject({ url: '/docs/static/%2e%2e%5c%2e%2e%5cpackage.json' });
    assert.equal(traversal.statusCode, 404);
    assert.equal(traversal.json().code, 'NOT_FOUND');
  });

  test('every prefix × hostile tail: 400/404 envelope, request id, nothing logged as a failure', async () => {
    const { lines, logger } = logSink();
    const { app } = await buildHarness({ logger });
    for (const prefix of PREFIXES) {
      for (const tail of HOSTILE_TAILS) {
        for (const method of ['GET', 'HEAD'] as const) {
          const url = prefix + tail;
          const response = await app.inject({ method, url });
          const where = `${method} ${url} → ${response.statusCode} ${response.body.slice(0, 200)}`;
          assert.ok([400, 404].includes(response.statusCode), where);
          assert.match(String(response.headers['x-request-id']), /^req_/, where);
          if (method === 'HEAD') continue;
          const body = response.json();
          assert.equal(body.statusCode, response.statusCode, where);
          assert.equal(typeof body.error, 'string', where);
          assert.ok(['INVALID_PARAMETER', 'NOT_FOUND'].includes(body.code), where);
          assert.ok(body.message !== undefined, where);
        }
      }
    }
    const failures = lines.filter((line) => line.level >= 40);
    assert.deepEqual(failures, []);
  });

  test('the real files still serve', async () => {
    const { app } = await buildHarness();
    for (const url of ['/docs/static/swagger-ui.css', '/docs/static/logo.svg', '/openapi.json']) {
      const response = await app.inject({ url });
      assert.equal(response.statusCode, 200, url);
    }
  });
});

/**
 * What Node's HTTP server refuses before Fastify sees a request, sent over a raw TCP socket to
 * a real listening server: every answer is the one error envelope with an X-Request-ID.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { Registry } from 'prom-client';
import { startOperatorServer } from './operator-server.ts';
import { startServer, type RunningServer } from './server.ts';
import { buildHarness } from './test-support.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The first response in `text`, or null while its head or its body is incomplete. */
function firstAnswer(text: string): RawAnswer | null {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return null;
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (text.length < split + 4 + length) return null;
  const body = text.slice(split + 4, split + 4 + length);
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/**
 * Writes `payload` and reads until the first response is complete or the server closes. The
 * limit only guards against a hang: the server's own timeouts (300 ms for headers) must not
 * race a client-side one on a starved machine.
 */
function exchange(port: number, payload: string | Buffer, waitMs = 60_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('latin1');
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (firstAnswer(text()) !== null) socket.destroy();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const answer = firstAnswer(text());
      if (answer === null) return reject(new Error(`no response: ${JSON.stringify(text())}`));
      resolve(answer);
    });
    socket.write(payload);
  });
}

function assertEnvelope(answer: RawAnswer, status: number, message: RegExp): void {
  assert.equal(answer.status, status, answer.body);
  assert.match(answer.headers['x-request-id'] ?? '', /^req_[A-Za-z0-9]{16}$/);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(answer.body);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode']);
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.code, 'string');
  assert.ok(Array.isArray(body.message), answer.body);
  assert.match(body.message.join(' '), message);
}

const GET = (target: string, headers = 'Host: x\r\n') => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

describe('requests refused before the router, over a raw socket', () => {
  let server: RunningServer;
  before(async () => {
    const { app } = await buildHarness();
    server = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
      timeoutCheckMs: 50,
    });
  });
  after(async () => {
    await server.close();
  });

  const refused: [string, string | Buffer, number, RegExp][] = [
    [
      'headers over the limit',
      GET('/v1/markets/health', `Host: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n`),
      431,
      /must not exceed 16384 bytes/,
    ],
    ['an over-long URL', GET(`/v1/items?search=${'a'.repeat(20_000)}`), 431, /16384 bytes/],
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400, /Unknown HTTP method/],
    [
      'malformed chunking',
      'POST /v1/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      400,
      /Malformed chunked body/,
    ],
    [
      'Content-Length together with Transfer-Encoding',
      'POST /v1/items HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      /Content-Length and Transfer-Encoding must not both be set/,
    ],
    [
      'a Transfer-Encoding that does not end with chunked',
      'POST /v1/items HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n',
      400,
      /must end with chunked/,
    ],
    [
      'two Content-Length headers',
      'POST /v1/items HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      400,
      /Content-Length must be sent once/,
    ],
    [
      'a Content-Length that is not a number',
      'POST /v1/items HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      400,
      /non-negative integer/,
    ],
    ['a missing Host on HTTP/1.1', GET('/v1/markets/health', ''), 400, /Host header is required/],
    [
      'two Host headers',
      GET('/v1/markets/health', 'Host: x\r\nHost: y\r\n'),
      400,
      /Host header must be sent once/,
    ],
    [
      'a header name with a space',
      GET('/v1/markets/health', 'Host: x\r\nBad Header: y\r\n'),
      400,
      /invalid character/,
    ],
    ['a control character in the URL', GET('/v1/\x01'), 400, /Malformed URL/],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n', 400, /HTTP version/],
    ['bare LF line endings', 'GET / HTTP/1.1\nHost: x\n\n', 400, /./],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, /HTTP\/2 is not supported/],
    ['TLS bytes on the plain port', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01]), 400, /./],
    [
      'an Expect other than 100-continue',
      GET('/v1/markets/health', 'Host: x\r\nExpect: teapot\r\n'),
      417,
      /only 100-continue/,
    ],
    [
      'CONNECT',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      400,
      /not a proxy/,
    ],
    [
      'headers not finished in time',
      'GET /v1/markets/health HTTP/1.1\r\nHost: x\r\n',
      408,
      /in time/,
    ],
  ];

  for (const [name, payload, status, message] of refused) {
    test(`${name} → ${status} in the envelope with X-Request-ID`, async () => {
      assertEnvelope(await exchange(server.port, payload), status, message);
    });
  }

  test('HTTP/1.0 needs no Host; the answer is the usual one', async () => {
    const answer = await exchange(server.port, 'GET /v1/markets/health HTTP/1.0\r\n\r\n');
    assert.equal(answer.status, 200);
    assert.match(answer.headers['x-request-id'] ?? '', /^req_/);
  });

  test('a client request id is echoed on an Expect refusal', async () => {
    const headers = 'Host: x\r\nExpect: teapot\r\nX-Request-ID: my-trace-1\r\n';
    const answer = await exchange(server.port, GET('/v1/markets/health', headers));
    assert.equal(answer.status, 417);
    assert.equal(answer.headers['x-request-id'], 'my-trace-1');
  });
});

describe('the metrics operator listener refuses the same way', () => {
  test('parser errors, a missing Host and Expect answer in the envelope', async () => {
    const server = await startOperatorServer({
      registry: new Registry(),
      port: 0,
      host: '127.0.0.1',
      token: null,
    });
    try {
      const cases: [string, number, RegExp][] = [
        ['FOO /metrics HTTP/1.1\r\nHost: x\r\n\r\n', 400, /Unknown HTTP method/],
        [GET('/metrics', `Host: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n`), 431, /16384 bytes/],
        [GET('/metrics', ''), 400, /Host header is required/],
        [GET('/metrics', 'Host: x\r\nExpect: teapot\r\n'), 417, /only 100-continue/],
      ];
      for (const [payload, status, message] of cases) {
        assertEnvelope(await exchange(server.port, payload), status, message);
      }
    } finally {
      await server.close();
    }
  });
});

/**
 * Oversized and unparseable requests over raw sockets: the answer (413, 400) always arrives, and
 * a client that goes on sending its body afterwards sees the connection end (FIN), not a reset.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { buildHarness } from './test-support.ts';

interface Outcome {
  answer: string;
  error: string | null;
  ended: boolean;
}

/** A raw client: what it read, whether the server ended the connection, and any socket error. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const outcome: Outcome = { answer: '', error: null, ended: false };
  socket.on('data', (chunk: Buffer) => (outcome.answer += chunk.toString('latin1')));
  socket.on('end', () => (outcome.ended = true));
  socket.on('error', (error: NodeJS.ErrnoException) => (outcome.error = error.code ?? 'error'));
  const closed = once(socket, 'close').then(() => outcome);
  const send = (data: string | Buffer) =>
    new Promise<void>((resolve) => socket.write(data, () => resolve()));
  const answered = () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!/\r\n\r\n\{.*\}$/s.test(outcome.answer)) return;
        socket.off('data', check);
        resolve();
      };
      socket.on('data', check);
      check();
    });
  return { socket, send, answered, closed };
}

const head = (length: number) =>
  `POST /v1/nope HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\n\r\n`;

describe('answers to oversized or unparseable requests survive a client that keeps sending', () => {
  let port = 0;
  let close: () => Promise<unknown>;
  before(async () => {
    const { app } = await buildHarness();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
    close = () => app.close();
  });
  after(() => close());

  test('413, then 2 MB more of body: read in full, then a clean end', async () => {
    const client = rawClient(port);
    const total = 2_000_000;
    await client.send(head(total) + 'x'.repeat(16_384));
    await client.answered();
    const chunk = Buffer.alloc(65_536, 'x');
    for (let sent = 16_384; sent < total; sent += chunk.length) await client.send(chunk);
    client.socket.end();
    const outcome = await client.closed;
    assert.equal(outcome.error, null, 'no reset while the body was still arriving');
    assert.ok(outcome.ended, 'the server ended the connection with a FIN');
    assert.match(outcome.answer, /^HTTP\/1\.1 413 /);
    assert.match(outcome.answer, /"code":"INVALID_PARAMETER"/);
  });

  test('bodies from 60 KB to 2 MB sent whole without reading first: every answer arrives', async () => {
    const statuses = new Map<string, number>();
    for (const size of [60_000, 70_000, 500_000, 2_000_000]) {
      for (let i = 0; i < 10; i += 1) {
        const client = rawClient(port);
        void client.send(Buffer.concat([Buffer.from(head(size)), Buffer.alloc(size, 'x')]));
        client.socket.end();
        const outcome = await client.closed;
        const status = outcome.error ?? outcome.answer.slice(9, 12);
        statuses.set(`${size} ${status}`, (statuses.get(`${size} ${status}`) ?? 0) + 1);
      }
    }
    assert.deepEqual(
      Object.fromEntries(statuses),
      { '60000 400': 10, '70000 413': 10, '500000 413': 10, '2000000 413': 10 },
      '60 KB is under the limit (its x-filled body is bad JSON: 400); the rest are 413',
    );
  });

  test('a request the parser refuses (bad chunk size), then more bytes: 400 read, clean end', async () => {
    const client = rawClient(port);
    await client.send(
      'POST /v1/nope HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    );
    await client.answered();
    const chunk = Buffer.alloc(65_536, 'x');
    for (let i = 0; i < 16; i += 1) await client.send(chunk);
    client.socket.end();
    const outcome = await client.closed;
    assert.equal(outcome.error, null);
    assert.ok(outcome.ended);
    assert.match(outcome.answer, /^HTTP\/1\.1 400 /);
  });
});

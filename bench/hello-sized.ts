/**
 * A floor for the pinned reads: a bare `node:http` server answering with a body of
 * `HELLO_BYTES` bytes and the headers a cached read sends (request id, quota, JSON type).
 */
import { createServer } from 'node:http';

const size = Number(process.env.HELLO_BYTES ?? 3229);
const body = Buffer.alloc(size, 'a');
let remaining = 1e9;
const server = createServer((request, response) => {
  response.writeHead(200, [
    'x-request-id',
    String(request.headers['x-request-id'] ?? 'req_0123456789abcdef'),
    'x-ratelimit-limit',
    '100000000',
    'x-ratelimit-remaining',
    String((remaining -= 1)),
    'x-ratelimit-reset',
    '26',
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(body.length),
  ]);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object')
    console.log(`listening on http://127.0.0.1:${address.port}`);
});

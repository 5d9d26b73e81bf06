/**
 * A loopback HTTP server for tests of the outbound client and the connectors: routes by method
 * and path, records every request it receives, and can answer the way real upstreams misbehave
 * (statuses with Retry-After, hangs past a timeout, truncated bodies, HTML pages), compressing
 * with Brotli or gzip when asked. Real sockets, real HTTP: nothing here mocks `fetch`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface ReceivedRequest {
  method: string;
  path: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Reply =
  | { kind: 'json'; body: unknown; status?: number; headers?: Record<string, string> }
  | { kind: 'text'; body: string; status?: number; headers?: Record<string, string> }
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'truncate'; body: string; keep: number }
  | { kind: 'html'; status?: number };

export type Responder = (request: ReceivedRequest) => Reply | Promise<Reply>;

export interface Loopback {
  url: string;
  received: ReceivedRequest[];
  /** Routes are `METHOD /path` (query ignored); `*` answers every path of no other route. */
  route(key: string, responder: Responder): void;
  close(): Promise<void>;
}

const HTML_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>cloudflare</body></html>';

/** Fast compression (Brotli's default, 11, takes seconds per megabyte). */
const BROTLI_QUALITY = 5;

function encode(body: Buffer, request: ReceivedRequest): { body: Buffer; encoding: string | null } {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    const params = { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY };
    return { body: brotliCompressSync(body, { params }), encoding: 'br' };
  }
  if (/\bgzip\b/.test(accepted)) return { body: gzipSync(body), encoding: 'gzip' };
  return { body, encoding: null };
}

function send(
  res: ServerResponse,
  request: ReceivedRequest,
  reply: Reply,
  hanging: Set<ServerResponse>,
): void {
  switch (reply.kind) {
    case 'hang':
      hanging.add(res);
      return;
    case 'truncate': {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply.body.slice(0, reply.keep));
      return;
    }
    case 'html':
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/html' });
      res.end(HTML_PAGE);
      return;
    case 'status':
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
      return;
    default: {
      const text = reply.kind === 'json' ? JSON.stringify(reply.body) : reply.body;
      const type = reply.kind === 'json' ? 'application/json' : 'text/plain; charset=utf-8';
      const { body, encoding } = encode(Buffer.from(text), request);
      res.writeHead(reply.status ?? 200, {
        'content-type': type,
        ...(encoding ? { 'content-encoding': encoding } : {}),
        ...reply.headers,
      });
      res.end(body);
    }
  }
}

export async function startLoopback(): Promise<Loopback> {
  const routes = new Map<string, Responder>();
  const received: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: ReceivedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const responder = routes.get(`${request.method} ${request.path}`) ?? routes.get('*');
      if (!responder) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"no such route"}');
        return;
      }
      Promise.resolve(responder(request)).then(
        (reply) => send(res, request, reply, hanging),
        (error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    route: (key, responder) => void routes.set(key, responder),
    close: () =>
      new Promise((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * startServer(app, {port, host}): listens with production timeouts and returns a handle whose
 * `close()` stops accepting connections, lets in-flight requests finish (up to `graceMs`), then
 * closes the rest. Timeouts: keep-alive 72 s (longer than typical load-balancer idle timeouts),
 * headers 30 s, whole request 30 s (a request past either is answered 408 by client-errors.ts).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app-type.ts';

export interface ServerOptions {
  port: number;
  host?: string;
  keepAliveTimeoutMs?: number;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How often expired header and request timeouts are looked for (default 5 s; Node's 30 s). */
  timeoutCheckMs?: number;
  /** How long close() waits for in-flight requests before dropping connections. */
  graceMs?: number;
}

export interface RunningServer {
  /** The bound address, e.g. `http://127.0.0.1:8080`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export function applyTimeouts(server: Server, options: ServerOptions): void {
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 72_000;
  server.headersTimeout = options.headersTimeoutMs ?? 30_000;
  server.requestTimeout = options.requestTimeoutMs ?? 30_000;
  // Read by Node when the server starts listening (not in @types/node's Server).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    options.timeoutCheckMs ?? 5_000;
}

/**
 * Listens on the app's own server, not through `app.listen()`: Fastify logs a line per bound
 * address there, and the caller prints the one line that says where the service listens.
 * `app.close()` still closes the server.
 */
async function listen(app: App, port: number, host: string): Promise<void> {
  await app.ready();
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.server.listen({ port, host }, () => {
      app.server.off('error', reject);
      resolve();
    });
  });
}

export async function startServer(app: App, options: ServerOptions): Promise<RunningServer> {
  applyTimeouts(app.server, options);
  await listen(app, options.port, options.host ?? '0.0.0.0');
  const address = app.server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    close() {
      closing ??= closeGracefully(app, options.graceMs ?? 10_000);
      return closing;
    },
  };
}

async function closeGracefully(app: App, graceMs: number): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  force.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}

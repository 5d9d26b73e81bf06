/**
 * startServer(app, {port, host}): listens with production timeouts and returns a handle whose
 * `close()` stops accepting connections, lets in-flight requests finish (up to `graceMs`), then
 * closes the rest. Timeouts: keep-alive 72 s (longer than typical load-balancer idle timeouts),
 * headers 30 s, whole request 30 s.
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
}

export async function startServer(app: App, options: ServerOptions): Promise<RunningServer> {
  applyTimeouts(app.server, options);
  await app.listen({ port: options.port, host: options.host ?? '0.0.0.0' });
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

/**
 * A loopback TCP proxy that holds every chunk for `delayMs` in each direction before passing it
 * on, in order: latency injected in front of a real server (Redis) for the fault tests and the
 * failover bench. `delayMs` may be changed while connections are open.
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface DelayProxy {
  port: number;
  delayMs: number;
  close(): Promise<void>;
}

/** Forwards `from` to `to`, each chunk no earlier than `delay()` after it arrived, in order. */
function pipeDelayed(from: Socket, to: Socket, delay: () => number): void {
  let last = 0;
  from.on('data', (chunk: Buffer) => {
    const due = Math.max(performance.now() + delay(), last);
    last = due;
    setTimeout(() => to.writable && to.write(chunk), due - performance.now());
  });
  from.on('close', () => setTimeout(() => to.destroy(), Math.max(0, last - performance.now())));
  from.on('error', () => to.destroy());
}

export async function startDelayProxy(targetPort: number, host = '127.0.0.1'): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  const state = { delayMs: 0 };
  const server = createServer((client) => {
    const upstream = connect(targetPort, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    pipeDelayed(client, upstream, () => state.delayMs);
    pipeDelayed(upstream, client, () => state.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
